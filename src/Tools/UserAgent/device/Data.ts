/** The generated device database's shape: plain JSON, column by column, in a few files (scripts/deviceData.ts). */
import { Schema } from "effect"
import { join } from "node:path"
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

/** The index: what the first lookup needs (scripts/deviceData.ts writes it). */
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

/** Brand n's models, a line of a brands file (`BRAND_FILES`): read on the brand's first string. */
export const BrandModels = Schema.Struct({
  patterns: Strings,
  templates: OptionalStrings,
  vendors: OptionalStrings,
  classes: Numbers,
  /** none for a brand of a few models */
  filing: Schema.NullOr(FilingData)
})
export type BrandModels = typeof BrandModels.Type

/** The names file: models' names one brand alone gives (lower case, one space between words), what each names. */
export const ModelNames = Schema.Struct({ texts: Strings, vendors: Strings, names: Strings, classes: Numbers })
export type ModelNames = typeof ModelNames.Type

/** The data as the lookups read it: the index at once, a brand's line or the names when first asked for (undefined
 * where their file was damaged since the start). */
export interface DeviceFile {
  readonly index: DeviceIndex
  readonly brand: (n: number) => BrandModels | undefined
  readonly names: () => ModelNames | undefined
}

/**
 * The brands' lines are spread over this many files, brand n at line floor(n / BRAND_FILES) of file n % BRAND_FILES:
 * a brand's first string reads one file of ~300 KB, not all 2.4 MB (a compiled binary reads an embedded file only
 * whole, and a read of several megabytes starts a collection inside that string's parse).
 */
export const BRAND_FILES = 8

/** The generated files, in the folder the generator writes them to (scripts/deviceData.ts). */
export interface DeviceFiles {
  /** the index: JSON of `DeviceIndex`, loaded as a module (the compiled binary carries it as code) */
  readonly index: string
  /** the brands' models: JSON Lines of `BrandModels` */
  readonly brands: ReadonlyArray<string>
  /** the names: JSON of `ModelNames`, one line */
  readonly names: string
  /** a line a file, in `inOrder`'s order: `sumOf` the file, then its name */
  readonly sums: string
}

/** The files the generator writes to `folder` (generated/devices). */
export const deviceFilesIn = (folder: string): DeviceFiles => ({
  index: join(folder, "index.json"),
  brands: Array.from({ length: BRAND_FILES }, (_, k) => join(folder, `brands-${k}.jsonl`)),
  names: join(folder, "names.jsonl"),
  sums: join(folder, "files.sum")
})

/** The files the sums list, in their order. */
export const inOrder = (files: DeviceFiles): ReadonlyArray<string> => [files.index, ...files.brands, files.names]

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

/** A file's sum: its CRC-32 in hex and its length in bytes. */
export const sumOf = (bytes: Uint8Array): string => `${crc32(bytes).toString(16).padStart(8, "0")} ${bytes.length}`

/** The sums file's text for `files` (name and bytes, in `inOrder`'s order). */
export const sumText = (files: ReadonlyArray<readonly [name: string, bytes: Uint8Array]>): string =>
  files.map(([name, bytes]) => `${sumOf(bytes)} ${name}\n`).join("")

/** The sums a sums file gives, in its order; undefined where it is not what `sumText` writes for `count` files. */
export const sumsIn = (text: string, count: number): ReadonlyArray<string> | undefined => {
  const lines = text.split("\n")
  if (lines.length !== count + 1 || lines[count] !== "") return undefined
  const sums = lines.slice(0, count).map((line) => /^([0-9a-f]{8} \d+) \S+$/.exec(line)?.[1])
  return sums.every((sum): sum is string => sum !== undefined) ? sums : undefined
}

/** The length a sum gives. */
export const lengthOf = (sum: string): number => Number(sum.slice(9))
