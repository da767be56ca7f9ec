/**
 * Loading `generated/devices.bin`, which scripts/deviceData.ts writes from the pinned node-device-detector (at
 * install, build and test) in DeviceFile.ts's layout, into what DeviceDatabase.ts's lookups read, keeping no more
 * than they read: every megabyte kept costs the service ~4 MB of peak RSS under load (DeviceFile.ts).
 */
/// <reference path="./DeviceData.d.ts" />
import { readFileSync } from "node:fs"
import { inflateRawSync } from "node:zlib"
import data from "../../../generated/devices.bin" with { type: "file" }
import { filingOf, latin1Text, readSections } from "./DeviceFile.ts"
import { devicePattern } from "./DevicePatterns.ts"
import { makePatternIndex, type PatternIndex } from "./PatternIndex.ts"
import type { Steps } from "./Steps.ts"

/** A model of a brand, as the file has it: [pattern, model template, its own brand]. */
export type ModelEntry = readonly [regex: string, model: string | null, brand: string | null]

interface Head {
  /** the package's version and the generator's code, hashed */
  readonly stamp: string
  readonly gates: ReadonlyArray<string>
  readonly brands: ReadonlyArray<readonly [name: string, gate: number, model: string | null]>
}

export interface Brand {
  readonly name: string
  /** the parser's own condition (HbbTV, shell TV, Facebook notebook tokens), -1 if it has none */
  readonly gate: number
  readonly model: string | null
  /** its number: its models are the file's block n */
  readonly n: number
  models?: PatternIndex<ModelEntry> | null
  /** its whole pattern, once needed */
  whole?: string
}

export interface Database {
  readonly gates: ReadonlyArray<RegExp>
  readonly brands: ReadonlyArray<Brand>
  /** the brands' alternatives (by number: each is its brand's, `brandOf`) */
  readonly index: PatternIndex<number>
  readonly brandOf: Int32Array
  /** brand n's block, inflated: its models */
  readonly block: (n: number) => Uint8Array
  /** a brand's pattern: its alternatives joined (as the package has it where a template reads its groups) */
  readonly regex: (brand: Brand) => string
}

let database: Database | undefined

/** The database, once loaded. */
export const loaded = (): Database | undefined => database

/** The database, read from the file (in steps; at once by `finish`) the first time. */
export function* load(): Steps<Database> {
  if (database !== undefined) return database
  const file = readFileSync(data)
  yield
  const sections = readSections<Head>(file)
  const head = sections.head
  // the brands' blocks of models, deflated (0.8 MB), each inflated on its brand's first string: not kept (each
  // megabyte kept costs ~4 MB of peak RSS under load, DeviceFile.ts) but read from the file again when needed after
  // the collector took them (brands come first in bursts, at start), if it is still the file that was loaded
  const [[from, to], blockEnds] = [sections.place("blocks"), sections.i32("blocks.ends")]
  let blocks = new WeakRef(file.subarray(from, to))
  const block = (n: number): Uint8Array => {
    let all = blocks.deref()
    if (all === undefined) {
      const again = readFileSync(data)
      if (readSections<Head>(again).head.stamp !== head.stamp) throw new Error("devices.bin changed since its load")
      all = again.subarray(from, to)
    }
    blocks = new WeakRef(all)
    return inflateRawSync(all.subarray(n === 0 ? 0 : blockEnds[n - 1], blockEnds[n]))
  }
  const brands = head.brands.map(([name, gate, model], n): Brand => ({ name, gate, model, n }))
  yield
  const [brandOf, ends] = [sections.i32("branch.brand"), sections.i32("branch.ends")]
  const alternatives = latin1Text(sections.u8("branch.text"))
  const source = (b: number): string => alternatives.slice(b === 0 ? 0 : ends[b - 1], ends[b])
  const regex = (brand: Brand): string => {
    const own: Array<string> = []
    for (let b = 0; b < brandOf.length; b++) if (brandOf[b] === brand.n) own.push(source(b))
    return own.join("|")
  }
  yield
  const numbers = Array.from(brandOf, (_, b) => b)
  const index = makePatternIndex(numbers, source, filingOf(sections, "filing."))
  return (database ??= { gates: head.gates.map(devicePattern), brands, index, brandOf, block, regex })
}

// a brand's models, inflated and parsed on its first string: under a millisecond for Samsung's 733. Where its block
// cannot be read (the file replaced or damaged since the load), the brand answers without its models.
export const modelsOf = (db: Database, brand: Brand): PatternIndex<ModelEntry> | null => {
  if (brand.models !== undefined) return brand.models
  try {
    const sections = readSections<{ readonly models: ReadonlyArray<ModelEntry> | null }>(db.block(brand.n))
    const models = sections.head.models
    const filing = sections.has("keys") ? filingOf(sections, "") : undefined
    return (brand.models = models === null ? null : makePatternIndex(models, (model) => model[0], filing))
  } catch {
    return (brand.models = null)
  }
}
