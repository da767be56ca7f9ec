/**
 * The brand and marketing name of a device from its user-agent string, by Matomo device-detector's device database
 * (LGPL-3.0) as node-device-detector ships it (MIT), loaded from `generated/devices.bin`, which
 * scripts/deviceData.ts writes from the pinned package (at install, build and test). Its parsers run in Matomo's
 * order (HbbTV and shell TVs only on their platform token, Facebook's notebooks only on `FBMD/`, then consoles, car
 * browsers, cameras, media players, mobiles); the first brand whose pattern matches wins, then the first of its
 * models. Matomo scans those ~2,300 brands and ~15,000 models pattern by pattern (about 2 ms a string); here the
 * brands' patterns, split into their top-level alternatives, are one `PatternIndex`, and each brand with more than 8
 * models has its own, so only the few patterns whose literal texts occur in the string run (about 5 a string on
 * browscap's). The indexes come made in the file, whose sections are used where they lie (DeviceFile.ts): loading the
 * brand index is ~7 ms, in steps (Steps.ts) the service runs on the first parse that needs it, handing the event loop back between them
 * (DeviceBuilds.ts); a brand's models are inflated and parsed on its first string. `lookUpDevice` never loads, it names what it
 * needs (`Unbuilt`); `identifyDevice`, for scripts and tests, loads at once.
 */
/// <reference path="./DeviceData.d.ts" />
import { readFileSync } from "node:fs"
import { inflateRawSync } from "node:zlib"
import data from "../../../generated/devices.bin" with { type: "file" }
import { allPatterns, devicePattern, modelName, RECENT, recentPatterns } from "./DevicePatterns.ts"
import { filingOf, latin1Text, readSections } from "./DeviceFile.ts"
import { type Compile, makePatternIndex, type PatternIndex } from "./PatternIndex.ts"
import { finish, type Steps, Unbuilt } from "./Steps.ts"

/** A model of a brand, as the file has it: [pattern, model template, its own brand]. */
type ModelEntry = readonly [regex: string, model: string | null, brand: string | null]

interface Head {
  readonly gates: ReadonlyArray<string>
  readonly brands: ReadonlyArray<readonly [name: string, gate: number, model: string | null]>
}

export interface DeviceIdentity {
  /** the brand that sells the device */
  readonly brand: string
  /** its marketing name, "" when the database names none */
  readonly name: string
}

// the brands the contract names otherwise (the brand that sells a BlackBerry is BlackBerry)
const brandNames: Readonly<Record<string, string>> = { RIM: "BlackBerry" }

interface Brand {
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

interface Database {
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
function* load(): Steps<Database> {
  if (database !== undefined) return database
  const file = readFileSync(data)
  yield
  const sections = readSections<Head>(file)
  const head = sections.head
  // the brands' blocks of models, deflated (0.8 MB), each inflated on its brand's first string: not kept (each
  // megabyte kept costs ~4 MB of peak RSS under load, DeviceFile.ts) but read from the file again when needed after
  // the collector took them (brands come first in bursts, at start)
  const [[from, to], blockEnds] = [sections.place("blocks"), sections.i32("blocks.ends")]
  let blocks = new WeakRef(file.subarray(from, to))
  const block = (n: number): Uint8Array => {
    const all = blocks.deref() ?? readFileSync(data).subarray(from, to)
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

// a brand's models, inflated and parsed on its first string: under a millisecond for Samsung's 733
const modelsOf = (db: Database, brand: Brand): PatternIndex<ModelEntry> | null => {
  if (brand.models !== undefined) return brand.models
  const sections = readSections<{ readonly models: ReadonlyArray<ModelEntry> | null }>(db.block(brand.n))
  const models = sections.head.models
  return (brand.models =
    models === null
      ? null
      : makePatternIndex(models, (model) => model[0], sections.has("keys") ? filingOf(sections, "") : undefined))
}

// a load that threw (the file unreadable or malformed): lookups answer without the database from then on
let broken = false
function* guarded<A>(steps: Steps<A>): Steps<void> {
  try {
    yield* steps
  } catch {
    broken = true
  }
}

/** The load of the brand index, which the first lookup needs. */
export const indexBuild: Unbuilt = new Unbuilt(() => guarded(load()))

/** The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. */
const identify = (
  ua: string,
  db: Database,
  first: <A>(index: PatternIndex<A>) => ReturnType<PatternIndex<A>["first"]>,
  byBrand: (open: (brand: Brand) => boolean) => { readonly brand: Brand; readonly match: RegExpExecArray } | undefined
): DeviceIdentity | undefined => {
  const passed: Array<boolean | undefined> = []
  const open = (brand: Brand): boolean => brand.gate < 0 || (passed[brand.gate] ??= db.gates[brand.gate]!.test(ua))
  const found = byBrand(open)
  if (found === undefined) return undefined
  const brand = found.brand
  let [vendor, name] = [brand.name, modelName(brand.model, found.match)]
  const models = modelsOf(db, brand)
  if (models !== null) {
    const model = first(models)
    if (model !== undefined) {
      name = modelName(model.entry[1], model.match)
      vendor = model.entry[2] ?? vendor
    }
  }
  // Matomo's rule: an iPhone or iPad named in an Android string is a fake
  if (vendor === "Apple" && /android /i.test(ua)) return undefined
  if (vendor === "Unknown" || vendor === "") return undefined
  return { brand: brandNames[vendor] ?? vendor, name }
}

// the patterns the service runs, the most recent kept compiled
const recent = recentPatterns(RECENT)

const byIndex = (ua: string, db: Database, compile: Compile): DeviceIdentity | undefined => {
  const lower = ua.toLowerCase()
  return identify(
    ua,
    db,
    (index) => index.first(ua, lower, compile),
    (open) => {
      const found = db.index.first(ua, lower, compile, (b) => open(db.brands[db.brandOf[b]!]!))
      if (found === undefined) return undefined
      const brand = db.brands[db.brandOf[found.entry]!]!
      // a model template's $1 counts the groups of the whole pattern: match it again, once a string at most
      if (brand.model?.includes("$") !== true) return { brand, match: found.match }
      return { brand, match: compile((brand.whole ??= db.regex(brand))).exec(ua) ?? found.match }
    }
  )
}

/**
 * The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. The
 * first call loads the brand index at once: for scripts and tests; the service uses `lookUpDevice`.
 */
export const identifyDevice = (ua: string): DeviceIdentity | undefined => byIndex(ua, finish(load()), recent)

/** `identifyDevice`, but it loads nothing: until the brand index is loaded it throws the `Unbuilt` that loads it. */
export const lookUpDevice = (ua: string): DeviceIdentity | undefined => {
  if (broken) return undefined
  if (database === undefined) throw indexBuild
  return byIndex(ua, database, recent)
}

// the brands' whole patterns scanned in order, as Matomo does, every pattern kept compiled: for scripts and tests
let scanning: { readonly whole: PatternIndex<Brand>; readonly compile: Compile } | undefined

/** The same answer by running every pattern in order, as Matomo does: what `scripts/deviceIndexCheck.ts` compares. */
export const scanDevice = (ua: string): DeviceIdentity | undefined => {
  const db = finish(load())
  const { whole, compile } = (scanning ??= {
    whole: makePatternIndex(db.brands, (brand) => (brand.whole ??= db.regex(brand))),
    compile: allPatterns()
  })
  return identify(
    ua,
    db,
    (index) => index.scan(ua, compile),
    (open) => {
      const found = whole.scan(ua, compile, open)
      return found === undefined ? undefined : { brand: found.entry, match: found.match }
    }
  )
}
