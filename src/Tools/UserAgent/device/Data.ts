/** The generated device database's shape: plain JSON, column by column (scripts/deviceData.ts writes it). */
import { Schema } from "effect"
import type { Filing } from "./PatternIndex.ts"

// a column checked in one loop: Schema's decoding element by element made the start much slower
const column = <A>(is: (value: unknown) => value is A) =>
  Schema.declare((value: unknown): value is ReadonlyArray<A> => Array.isArray(value) && value.every(is))
const Numbers = column((value): value is number => typeof value === "number")
const Strings = column((value): value is string => typeof value === "string")
const OptionalStrings = column((value): value is string | null => value === null || typeof value === "string")

/** A `Filing` (PatternIndex.ts) as plain arrays; `pieces` as a text of one character a byte. */
const FilingData = Schema.Struct({
  keys: Numbers,
  starts: Numbers,
  entries: Numbers,
  pieces: Schema.String,
  ends: Numbers,
  offsets: Numbers,
  always: Numbers
})
export type FilingData = typeof FilingData.Type

export const DeviceData = Schema.Struct({
  source: Schema.String,
  stamp: Schema.String,
  /** the parsers' own conditions (HbbTV, shell TV, Facebook notebook); a brand's gate -1 is none */
  gates: Strings,
  /** Matomo's device classes ("smartphone", "tablet", "tv"...); a brand's or model's class -1 is none (a model: its brand's) */
  classes: Strings,
  brands: Schema.Struct({ names: Strings, gates: Numbers, templates: OptionalStrings, classes: Numbers }),
  alternatives: Schema.Struct({ brands: Numbers, sources: Strings }),
  filing: FilingData,
  /** brand after brand: brand n's from `starts[n]` to `starts[n + 1]` */
  models: Schema.Struct({
    starts: Numbers,
    patterns: Strings,
    templates: OptionalStrings,
    brands: OptionalStrings,
    classes: Numbers
  }),
  /** models' names one brand alone gives (lower case, one space between words), each one's brand and model */
  names: Schema.Struct({ texts: Strings, brands: Numbers, models: Numbers }),
  modelFilings: Schema.Struct({ brands: Numbers, filings: Schema.Array(FilingData) })
})
export type DeviceData = typeof DeviceData.Type

export const filingOf = (data: FilingData): Filing => ({
  keys: Int32Array.from(data.keys),
  starts: Int32Array.from(data.starts),
  entries: Int32Array.from(data.entries),
  pieces: Buffer.from(data.pieces, "latin1"),
  ends: Int32Array.from(data.ends),
  offsets: Uint8Array.from(data.offsets),
  always: Int32Array.from(data.always)
})
