/** The generated device database's shape: plain JSON, column by column (scripts/deviceData.ts writes it). */
import { Schema } from "effect"
import { crc32 } from "node:zlib"
import type { Filing, Tables } from "./PatternIndex.ts"

// a column checked in one loop: Schema's decoding element by element made the start much slower
const column = <A>(is: (value: unknown) => value is A) =>
  Schema.declare((value: unknown): value is ReadonlyArray<A> => Array.isArray(value) && value.every(is))
const Numbers = column((value): value is number => typeof value === "number")
const Strings = column((value): value is string => typeof value === "string")
const OptionalStrings = column((value): value is string | null => value === null || typeof value === "string")

/** A `Filing` (PatternIndex.ts), each column its bytes in base64 (little-endian): read at once, not number by number */
const FilingData = Schema.Struct({
  keys: Schema.String,
  starts: Schema.String,
  entries: Schema.String,
  pieces: Schema.String,
  ends: Schema.String,
  offsets: Schema.String,
  always: Schema.String
})
export type FilingData = typeof FilingData.Type

/** The file's first line: what the first lookup needs (scripts/deviceData.ts writes it). */
export const DeviceIndex = Schema.Struct({
  source: Schema.String,
  stamp: Schema.String,
  /** the parsers' own conditions (HbbTV, shell TV, Facebook notebook); a brand's gate -1 is none */
  gates: Strings,
  /** Matomo's device classes ("smartphone", "tablet", "tv"...); a brand's or model's class -1 is none (a model: its brand's) */
  classes: Strings,
  brands: Schema.Struct({ names: Strings, gates: Numbers, templates: OptionalStrings, classes: Numbers }),
  alternatives: Schema.Struct({ brands: Numbers, sources: Strings }),
  filing: FilingData,
  /** the filing's `Tables` (PatternIndex.ts), base64 as its columns */
  tables: Schema.Struct({ slots: Schema.String, opening: Schema.String })
})
export type DeviceIndex = typeof DeviceIndex.Type

/** Brand n's models, line n + 1: read on the brand's first string. */
export const BrandModels = Schema.Struct({
  patterns: Strings,
  templates: OptionalStrings,
  vendors: OptionalStrings,
  classes: Numbers,
  /** none for a brand of a few models */
  filing: Schema.NullOr(FilingData)
})
export type BrandModels = typeof BrandModels.Type

/** The last line: models' names one brand alone gives (lower case, one space between words), what each names. */
export const ModelNames = Schema.Struct({ texts: Strings, vendors: Strings, names: Strings, classes: Numbers })
export type ModelNames = typeof ModelNames.Type

/** The file as the lookups read it: the index at once, a brand's line or the names' when first asked for. */
export interface DeviceFile {
  readonly index: DeviceIndex
  readonly brand: (n: number) => BrandModels
  readonly names: () => ModelNames
}

// the decoded bytes in place where they start a buffer of their own (a long column), else a copy that does, so that
// 32-bit columns are aligned and a short one keeps no shared pool alive
const bytesOf = (base64: string): Uint8Array => {
  const bytes = Buffer.from(base64, "base64")
  if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.length) return new Uint8Array(bytes)
  return new Uint8Array(bytes.buffer)
}
const int32sOf = (base64: string): Int32Array => new Int32Array(bytesOf(base64).buffer)

export const tablesFrom = (data: DeviceIndex["tables"]): Tables => ({
  slots: int32sOf(data.slots),
  opening: bytesOf(data.opening)
})

export const filingOf = (data: FilingData): Filing => ({
  keys: int32sOf(data.keys),
  starts: int32sOf(data.starts),
  entries: int32sOf(data.entries),
  pieces: bytesOf(data.pieces),
  ends: int32sOf(data.ends),
  offsets: bytesOf(data.offsets),
  always: int32sOf(data.always)
})

/** The sum the generator writes beside the file (`devices.sum`): its CRC-32 in hex and its length in bytes. */
export const sumOf = (bytes: Uint8Array): string => `${crc32(bytes).toString(16).padStart(8, "0")} ${bytes.length}\n`

/** The length a sum gives, undefined where it is not one `sumOf` writes. */
export const lengthOf = (sum: string): number | undefined => {
  const length = /^[0-9a-f]{8} (\d+)\n$/.exec(sum)?.[1]
  return length === undefined ? undefined : Number(length)
}
