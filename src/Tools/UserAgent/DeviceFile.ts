/**
 * The layout of `generated/devices.bin`, which scripts/deviceData.ts writes and DeviceDatabase.ts reads, and of each
 * brand's block in it: a line of JSON (the head), then typed sections that the reader uses where they lie in the
 * file, without parsing or copying them. The index's numbers and texts read as JSON made ~5 MB of garbage and ~3 MB
 * of copies at every load. A section starts at a multiple of its element's size, in the writer's byte order
 * (little-endian on every platform Bun runs on).
 */
import type { Filing } from "./PatternIndex.ts"

export type Section = Int32Array | Uint16Array | Uint8Array

const kinds = { i32: Int32Array, u16: Uint16Array, u8: Uint8Array } as const
type Kind = keyof typeof kinds
const kindOf = (section: Section): Kind =>
  section instanceof Int32Array ? "i32" : section instanceof Uint16Array ? "u16" : "u8"

/** The head, in ASCII (other characters as JSON escapes), and the sections, named in it with their kind and length. */
export const writeSections = (head: object, sections: Readonly<Record<string, Section>>): Buffer => {
  const list = Object.entries(sections)
  const json = JSON.stringify({ ...head, sections: list.map(([name, s]) => [name, kindOf(s), s.length]) }).replace(
    /[^\x00-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
  )
  const parts: Array<Uint8Array> = [Buffer.from(`${json}\n`, "latin1")]
  let at = parts[0]!.length
  for (const [, section] of list) {
    const pad = -at & 3
    parts.push(Buffer.alloc(pad), Buffer.from(section.buffer, section.byteOffset, section.byteLength))
    at += pad + section.byteLength
  }
  return Buffer.concat(parts)
}

export interface Sections<Head> {
  readonly head: Head
  readonly i32: (name: string) => Int32Array
  readonly u16: (name: string) => Uint16Array
  readonly u8: (name: string) => Uint8Array
  readonly has: (name: string) => boolean
}

/** What `writeSections` wrote: the sections are views of `file` (copies only where it lies unaligned in memory). */
export const readSections = <Head>(file: Uint8Array): Sections<Head> => {
  const end = file.indexOf(10)
  const head = JSON.parse(Buffer.from(file.buffer, file.byteOffset, end).toString("latin1")) as Head & {
    readonly sections: ReadonlyArray<readonly [string, Kind, number]>
  }
  const found = new Map<string, Section>()
  let at = end + 1
  for (const [name, kind, length] of head.sections) {
    at += -at & 3
    const type = kinds[kind]
    const bytes = length * type.BYTES_PER_ELEMENT
    if (at + bytes > file.length) throw new Error(`devices.bin: section ${name} runs past the end of the file`)
    const start = file.byteOffset + at
    found.set(
      name,
      start % type.BYTES_PER_ELEMENT === 0
        ? new type(file.buffer as ArrayBuffer, start, length)
        : new type(new Uint8Array(file.subarray(at, at + bytes)).buffer)
    )
    at += bytes
  }
  const get = (kind: Kind) => (name: string) => {
    const section = found.get(name)
    if (section === undefined || kindOf(section) !== kind) throw new Error(`devices.bin: no ${kind} section ${name}`)
    return section
  }
  return {
    head,
    i32: get("i32") as (name: string) => Int32Array,
    u16: get("u16") as (name: string) => Uint16Array,
    u8: get("u8") as (name: string) => Uint8Array,
    has: (name) => found.has(name)
  }
}

/** A text as a section: its UTF-16 code units. */
export const codeUnits = (text: string): Uint16Array =>
  Uint16Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))

/** The text of a section of code units. */
export const textOf = (units: Uint16Array): string => new TextDecoder("utf-16le").decode(units)

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
  pieces: sections.u16(`${prefix}pieces`),
  ends: sections.i32(`${prefix}ends`),
  offsets: sections.u8(`${prefix}offsets`),
  always: sections.i32(`${prefix}always`)
})
