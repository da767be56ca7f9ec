/** What the lookups read, built from the generated file's index a step at a time; a brand's models on its first string. */
import { Effect } from "effect"
import { memoize } from "effect/Function"
import { type DeviceFile, filingOf, tablesFrom } from "./Data.ts"
import { devicePattern } from "./Patterns.ts"
import { makePatternIndex, type PatternIndex } from "./PatternIndex.ts"

export interface Brand {
  readonly name: string
  /** its parser's own condition, -1 if none */
  readonly gate: number
  readonly model: string | null
  /** Matomo's class of its devices ("smartphone", "tv"), "" if none */
  readonly kind: string
  readonly n: number
}

/** A brand's models: their patterns indexed, and what each names (its template, its own vendor and class, or null). */
export interface Models {
  readonly index: PatternIndex<number>
  readonly templates: ReadonlyArray<string | null>
  readonly vendors: ReadonlyArray<string | null>
  /** a model's class where it is not its brand's, else "" */
  readonly kinds: ReadonlyArray<string>
}

/** A model found by its name alone (Lookup.ts). */
export interface Named {
  readonly vendor: string
  readonly name: string
  readonly kind: string
}

export type Database = Effect.Success<ReturnType<typeof build>>

// Made outside `build`, so that what they keep is what they read, never the parsed index
const sourceOf = (sources: ReadonlyArray<string>) => (n: number) => sources[n]!
const classOf = (classes: ReadonlyArray<string>) => (c: number) => classes[c] ?? ""
// the first request that needs a brand reads and indexes that brand's line alone
const modelsOf = (brandLine: DeviceFile["brand"], kindOf: (c: number) => string) =>
  memoize(({ n }: Brand): Models | null => {
    const line = brandLine(n)
    if (line === undefined || line.patterns.length === 0) return null
    const { patterns, templates, vendors, classes, filing } = line
    const index = makePatternIndex(
      [...patterns.keys()],
      sourceOf(patterns),
      filing === null ? undefined : filingOf(filing)
    )
    return { index, templates, vendors, kinds: classes.map(kindOf) }
  })
const namedOf = (namesLine: DeviceFile["names"], kindOf: (c: number) => string) => {
  let named: ReadonlyMap<string, Named> | undefined
  return (): ReadonlyMap<string, Named> => {
    if (named !== undefined) return named
    const line = namesLine()
    named = new Map(
      line?.texts.map((text, t) => [
        text,
        { vendor: line.vendors[t]!, name: line.names[t]!, kind: kindOf(line.classes[t]!) }
      ])
    )
    return named
  }
}
const regexOf = (sources: ReadonlyArray<string>, brandOf: Int32Array) =>
  memoize((brand: Brand) => sources.filter((_, b) => brandOf[b] === brand.n).join("|"))

export const build = Effect.fnUntraced(function* (file: DeviceFile, pause: Effect.Effect<void>) {
  const data = file.index
  const { names, gates, templates } = data.brands
  const kindOf = classOf(data.classes)
  const brands = names.map((name, n): Brand => ({
    name,
    gate: gates[n]!,
    model: templates[n] ?? null,
    kind: kindOf(data.brands.classes[n]!),
    n
  }))
  const { sources } = data.alternatives
  const brandOf = Int32Array.from(data.alternatives.brands)
  yield* pause
  const filing = filingOf(data.filing)
  yield* pause
  const index = makePatternIndex([...sources.keys()], sourceOf(sources), filing, tablesFrom(data.tables))
  return {
    gates: data.gates.map(devicePattern),
    brands,
    index,
    brandOf,
    /** each brand's models, read and indexed on the brand's first string */
    models: modelsOf(file.brand, kindOf),
    /** a model by its name, where one brand alone gives it (plainName), read on the first string that needs it */
    named: namedOf(file.names, kindOf),
    /** a brand's alternatives joined, for a template that reads the whole pattern's groups */
    regex: regexOf(sources, brandOf)
  }
})
