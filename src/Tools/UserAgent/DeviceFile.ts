/**
 * The layout of `generated/devices.bin`, which scripts/deviceData.ts writes and DeviceLoad.ts reads, and of each
 * brand's block in it: a line of JSON (the head), then typed sections, one after the other, in the writer's byte
 * order (little-endian on every platform Bun runs on). The reader copies each section out whole, with no parsing, so
 * the file itself is not kept: the index's numbers and texts read as JSON made ~5 MB of garbage at every load, and
 * every megabyte the service keeps costs it ~4 MB of peak RSS under load (its collector's headroom grows with it).
 */
import type { Filing } from "./PatternIndex.ts"

export type Section = Int32Array | Uint8Array

const kinds = { i32: Int32Array, u8: Uint8Array } as const
type Kind = keyof typeof kinds
const kindOf = (section: Section): Kind => (section instanceof Int32Array ? "i32" : "u8")

/** The head, in ASCII (other characters as JSON escapes), and the sections, named in it with their kind and length. */
export const writeSections = (head: object, sections: Readonly<Record<string, Section>>): Buffer => {
  const list = Object.entries(sections)
  const json = escaped(
    JSON.stringify({ ...head, sections: list.map(([name, s]) => [name, kindOf(s), s.length]) }),
    /[^\x00-\x7f]/g
  )
  const parts: Array<Uint8Array> = [Buffer.from(`${json}\n`, "latin1")]
  for (const [, section] of list) parts.push(new Uint8Array(section.buffer, section.byteOffset, section.byteLength))
  return Buffer.concat(parts)
}

export interface Sections<Head> {
  readonly head: Head
  /** a section, copied out of the file */
  readonly i32: (name: string) => Int32Array
  readonly u8: (name: string) => Uint8Array
  /** where a section's bytes lie in the file, [start, end) */
  readonly place: (name: string) => readonly [number, number]
  readonly has: (name: string) => boolean
}

/** What `writeSections` wrote. A section asked for is a copy, so that nothing needs `file` afterwards. */
export const readSections = <Head>(file: Uint8Array): Sections<Head> => {
  const end = file.indexOf(10)
  const head = JSON.parse(Buffer.from(file.buffer, file.byteOffset, end).toString("latin1")) as Head & {
    readonly sections: ReadonlyArray<readonly [string, Kind, number]>
  }
  const places = new Map<string, readonly [kind: Kind, start: number, end: number]>()
  let at = end + 1
  for (const [name, kind, length] of head.sections) {
    const bytes = length * kinds[kind].BYTES_PER_ELEMENT
    if (at + bytes > file.length) throw new Error(`devices.bin: section ${name} runs past the end of the file`)
    places.set(name, [kind, at, (at += bytes)])
  }
  const placeOf = (name: string, kind?: Kind): readonly [Kind, number, number] => {
    const place = places.get(name)
    if (place === undefined || (kind !== undefined && place[0] !== kind))
      throw new Error(`devices.bin: no ${kind === undefined ? "" : `${kind} `}section ${name}`)
    return place
  }
  const copy = (kind: Kind) => (name: string) => {
    const [, start, end] = placeOf(name, kind)
    return new kinds[kind](new Uint8Array(file.subarray(start, end)).buffer)
  }
  return {
    head,
    i32: copy("i32") as (name: string) => Int32Array,
    u8: copy("u8") as (name: string) => Uint8Array,
    place: (name) => placeOf(name).slice(1) as [number, number],
    has: (name) => places.has(name)
  }
}

/**
 * `text` with the characters `wide` matches (by default, those beyond Latin-1) as `\uXXXX`: the same character in
 * JSON and in a regular expression (outside a `\` escape), where a text all of Latin-1 is held at a byte a character.
 */
export const escaped = (text: string, wide = /[^\x00-\xff]/g): string =>
  text.replace(wide, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** A text all of Latin-1 as a section, a byte a character. */
export const latin1 = (text: string): Uint8Array => {
  if (/[^\x00-\xff]/.test(text)) throw new Error("not Latin-1: escape it first")
  return Buffer.from(text, "latin1")
}

/** The text of a section of Latin-1 bytes. */
export const latin1Text = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1")

/** A filing's sections, each name starting with `prefix`. */
export const filingSections = (filing: Filing, prefix: string): Record<string, Section> => ({
  [`${prefix}keys`]: filing.keys,
  [`${prefix}starts`]: filing.starts,
  [`${prefix}entries`]: filing.entries,
  [`${prefix}pieces`]: filing.pieces,
  [`${prefix}ends`]: filing.ends,
  [`${prefix}offsets`]: filing.offsets,
  [`${prefix}always`]: filing.always
})

/** The filing `filingSections` wrote. */
export const filingOf = (sections: Sections<unknown>, prefix: string): Filing => ({
  keys: sections.i32(`${prefix}keys`),
  starts: sections.i32(`${prefix}starts`),
  entries: sections.i32(`${prefix}entries`),
  pieces: sections.u8(`${prefix}pieces`),
  ends: sections.i32(`${prefix}ends`),
  offsets: sections.u8(`${prefix}offsets`),
  always: sections.i32(`${prefix}always`)
})
