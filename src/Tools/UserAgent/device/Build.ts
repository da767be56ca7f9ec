/** What the lookups read, built from the generated data a step at a time, each step after the service's pause point. */
import { Effect } from "effect"
import { memoize } from "effect/Function"
import { devicePattern } from "./Patterns.ts"
import { type Filing, makePatternIndex } from "./PatternIndex.ts"
import { type DeviceData, filingOf } from "./Data.ts"

export interface Brand {
  readonly name: string
  /** its parser's own condition, -1 if none */
  readonly gate: number
  readonly model: string | null
  /** Matomo's class of its devices ("smartphone", "tv"), "" if none */
  readonly kind: string
  readonly n: number
}

export type Database = Effect.Success<ReturnType<typeof build>>

// Made outside `build`, so that what they keep is what they read, never the parsed file
const sourceOf = (sources: ReadonlyArray<string>) => (n: number) => sources[n]!
const modelsOf = (starts: ReadonlyArray<number>, patterns: ReadonlyArray<string>, filings: Map<number, Filing>) =>
  memoize(({ n }: Brand) => {
    const [from, to] = [starts[n]!, starts[n + 1]!]
    if (from === to) return null
    const models = Array.from({ length: to - from }, (_, i) => from + i)
    return makePatternIndex(models, sourceOf(patterns), filings.get(n))
  })
const regexOf = (sources: ReadonlyArray<string>, brandOf: Int32Array) =>
  memoize((brand: Brand) => sources.filter((_, b) => brandOf[b] === brand.n).join("|"))

export const build = Effect.fnUntraced(function* (data: DeviceData, pause: Effect.Effect<void>) {
  const { names, gates, templates } = data.brands
  const classOf = (c: number): string => data.classes[c] ?? ""
  const brands = names.map((name, n): Brand => ({
    name,
    gate: gates[n]!,
    model: templates[n] ?? null,
    kind: classOf(data.brands.classes[n]!),
    n
  }))
  const { sources } = data.alternatives
  const brandOf = Int32Array.from(data.alternatives.brands)
  yield* pause
  const filing = filingOf(data.filing)
  yield* pause
  const index = makePatternIndex([...sources.keys()], sourceOf(sources), filing)
  const filings = new Map<number, Filing>()
  const { brands: filed, filings: modelFilings } = data.modelFilings
  for (let f = 0; f < filed.length; f++) {
    yield* pause
    filings.set(filed[f]!, filingOf(modelFilings[f]!))
  }
  const { starts, patterns } = data.models
  const { texts, brands: namedBrands, models: namedModels } = data.names
  const named = new Map(texts.map((text, t) => [text, { brand: brands[namedBrands[t]!]!, model: namedModels[t]! }]))
  return {
    gates: data.gates.map(devicePattern),
    brands,
    index,
    brandOf,
    /** each brand's models, indexed on the brand's first string */
    models: modelsOf(starts, patterns, filings),
    templates: data.models.templates,
    vendors: data.models.brands,
    /** a model's class where it is not its brand's, else "" */
    kinds: data.models.classes.map(classOf),
    /** a model by its name, where one brand alone gives it (plainName) */
    named,
    /** a brand's alternatives joined, for a template that reads the whole pattern's groups */
    regex: regexOf(sources, brandOf)
  }
})
