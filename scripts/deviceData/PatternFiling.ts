/**
 * The index as the generator makes it (scripts/deviceData.ts): patterns cut into alternatives, and each text a
 * pattern needs filed under the window of it that no common browser word contains and the fewest texts share.
 */
import type { FilingData } from "../../src/Tools/UserAgent/device/Data.ts"
import type { Filing, Tables } from "../../src/Tools/UserAgent/device/PatternIndex.ts"
import { COMMON, gram, pair, requiredTexts } from "./PatternTexts.ts"

/** A pattern's characters outside escapes and classes, each with its place and its group depth. */
function* syntax(source: string): Generator<readonly [at: number, c: string, depth: number]> {
  let [depth, inClass] = [0, false]
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === "\\") i++
    else if (inClass) inClass = c !== "]"
    else if (c === "[") inClass = true
    else yield [i, c, c === "(" ? depth++ : c === ")" ? --depth : depth]
  }
}

/** The top-level alternatives of a pattern (`a|b(c|d)` -> `a`, `b(c|d)`). */
export const branches = (source: string): Array<string> => {
  const out: Array<string> = []
  let start = 0
  for (const [i, c, depth] of syntax(source))
    if (c === "|" && depth === 0) {
      out.push(source.slice(start, i))
      start = i + 1
    }
  out.push(source.slice(start))
  return out
}

/**
 * An alternative longer than `limit` as the alternatives of its longest unquantified group (`x(?:a|b)y` -> `xay`,
 * `xby`), until each is short enough: a long one compiles to much code that never runs. Group numbers may change, so
 * it is for patterns no template's `$n` reads.
 */
export const spread = (source: string, limit: number): Array<string> => {
  if (source.length <= limit || /\\[1-9k]/.test(source)) return [source]
  let best: { readonly open: number; readonly body: number; readonly close: number } | undefined
  let open = 0
  for (const [i, c, depth] of syntax(source)) {
    if (depth !== 0) continue
    if (c === "(") open = i
    else if (c === ")") {
      const body = source.startsWith("(?:", open) ? open + 3 : source[open + 1] === "?" ? -1 : open + 1
      const quantified = /^[?*+{]/.test(source.slice(i + 1, i + 2))
      if (body !== -1 && !quantified && (best === undefined || i - body > best.close - best.body))
        best = { open, body, close: i }
    }
  }
  if (best === undefined) return [source]
  const alternatives = branches(source.slice(best.body, best.close))
  if (alternatives.length < 2) return [source]
  const [before, after] = [source.slice(0, best.open), source.slice(best.close + 1)]
  const capturing = best.body === best.open + 1
  return alternatives.flatMap((alternative) =>
    spread(before + (capturing ? `(${alternative})` : alternative) + after, limit)
  )
}

// the characters of a text kept around its key's window: checking a piece only lets a few more patterns run
const KEPT = 12

/** The `Filing` of the patterns `sources`; those with no text always run. */
export const fileTexts = (sources: ReadonlyArray<string>): Filing => {
  const filed = new Map<number, Array<{ readonly n: number; readonly piece: string; readonly offset: number }>>()
  const always: Array<number> = []
  const texts = sources.map(requiredTexts)
  // a text's uncommon windows (else its first), as [offset, key, offset, key, ...]
  const windowsOf = (text: string): Array<number> => {
    if (text.length === 2) return [0, pair(text, 0)]
    const all: Array<number> = []
    for (let i = 0; i + 2 < text.length; i++) if (!COMMON.has(gram(text, i))) all.push(i, gram(text, i))
    return all.length > 0 ? all : [0, gram(text, 0)]
  }
  const shared = new Map<number, number>()
  for (const set of texts)
    for (const text of set ?? []) {
      const w = windowsOf(text)
      for (let j = 1; j < w.length; j += 2) shared.set(w[j]!, (shared.get(w[j]!) ?? 0) + 1)
    }
  texts.forEach((set, n) => {
    if (set === null) return void always.push(n)
    for (const text of set) {
      const w = windowsOf(text)
      let best = 0
      for (let j = 2; j < w.length; j += 2) if (shared.get(w[j + 1]!)! < shared.get(w[best + 1]!)!) best = j
      const [offset, key] = [w[best]!, w[best + 1]!]
      const from = Math.max(0, Math.min(offset - 4, text.length - KEPT))
      const entry = { n, piece: text.slice(from, from + KEPT), offset: offset - from }
      const list = filed.get(key)
      if (list === undefined) filed.set(key, [entry])
      else list.push(entry)
    }
  })
  const keys = [...filed.keys()].sort((a, b) => a - b)
  const listed = keys.flatMap((key) => filed.get(key)!)
  const starts = [0]
  for (const key of keys) starts.push(starts.at(-1)! + filed.get(key)!.length)
  let [pieces, end] = ["", 0]
  for (const { piece } of listed) pieces += piece
  return {
    keys: Int32Array.from(keys),
    starts: Int32Array.from(starts),
    entries: Int32Array.from(listed, ({ n }) => n),
    pieces: Uint8Array.from({ length: pieces.length }, (_, i) => pieces.charCodeAt(i) & 0xff),
    ends: Int32Array.from(listed, ({ piece }) => (end += piece.length)),
    offsets: Uint8Array.from(listed, ({ offset }) => offset),
    always: Int32Array.from(always)
  }
}

const base64 = (column: Int32Array | Uint8Array): string =>
  Buffer.from(column.buffer, column.byteOffset, column.byteLength).toString("base64")

/** A filing as the file holds it (device/Data.ts): each column's bytes in base64. */
export const filingData = (filing: Filing): FilingData => ({
  keys: base64(filing.keys),
  starts: base64(filing.starts),
  entries: base64(filing.entries),
  pieces: base64(filing.pieces),
  ends: base64(filing.ends),
  offsets: base64(filing.offsets),
  always: base64(filing.always)
})

/** A filing's tables as the file holds them (device/Data.ts). */
export const tablesData = (tables: Tables) => ({ slots: base64(tables.slots), opening: base64(tables.opening) })

/** All of ASCII, so a process holds the text at a byte a character. */
export const toJson = (data: unknown): string =>
  JSON.stringify(data).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
