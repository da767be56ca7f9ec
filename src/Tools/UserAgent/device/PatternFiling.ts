/**
 * How the device database's index is made when its data is generated (scripts/deviceData.ts): a brand's pattern cut
 * into its top-level alternatives, and each text a pattern needs (PatternTexts.ts) filed under one window of two or
 * three of its characters, one that common browser words (Mozilla, AppleWebKit, Android, Build, ...) do not contain
 * and, of those, the one the fewest texts of the list share. The lookup that uses the filing is PatternIndex.ts.
 */
import type { Filing } from "./PatternIndex.ts"
import { requiredTexts } from "./PatternTexts.ts"
import { COMMON, gram, pair } from "./PatternWindows.ts"

/**
 * A pattern's characters outside escapes and classes, each with its place and the depth of the groups around it (a
 * `(` at the depth it opens from, a `)` at the one it closes back to).
 */
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

/** The top-level alternatives of a pattern (`a|b(c|d)` -> `a`, `b(c|d)`): each is shorter to run than the whole. */
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
 * An alternative longer than `limit` characters as the alternatives of its longest unquantified group, one by one
 * (`x(?:a|b)y` -> `xay`, `xby`; a capturing group stays one, `x(a)y`), again until each is short enough or has no such
 * group. The pieces match where the whole does; its groups' numbers may change, so it is for patterns whose `$n` no
 * template reads. A long alternative costs memory when compiled, most of it for alternatives that never run: Yarr
 * held 5 MB for Huawei's 7,213 characters, where a piece is a few kilobytes.
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

// At most this many characters of a text are kept: a piece of a text around its key's window is found wherever
// the text is, so checking the piece only lets a few more patterns run
const KEPT = 12

/**
 * How the patterns `sources` are looked up (see `Filing`): each text filed under its window that the fewest texts of
 * this list share (Samsung's models all carry "sm-"); the patterns with no text always run.
 */
export const fileTexts = (sources: ReadonlyArray<string>): Filing => {
  const filed = new Map<number, Array<number | string>>()
  const always: Array<number> = []
  const texts = sources.map(requiredTexts)
  // a text's candidate windows are its uncommon ones (all of them if none is), as [offset, key, offset, key, ...]
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
      const piece = text.slice(from, from + KEPT)
      const list = filed.get(key)
      if (list === undefined) filed.set(key, [n, piece, offset - from])
      else list.push(n, piece, offset - from)
    }
  })
  const keys = [...filed.keys()].sort((a, b) => a - b)
  const [starts, entries, offsets, ends, pieces] = [
    [0],
    [] as Array<number>,
    [] as Array<number>,
    [] as Array<number>,
    [""]
  ]
  let end = 0
  for (const key of keys) {
    const list = filed.get(key)!
    for (let j = 0; j < list.length; j += 3) {
      entries.push(list[j] as number)
      pieces.push(list[j + 1] as string)
      ends.push((end += (list[j + 1] as string).length))
      offsets.push(list[j + 2] as number)
    }
    starts.push(entries.length)
  }
  const joined = pieces.join("")
  return {
    keys: Int32Array.from(keys),
    starts: Int32Array.from(starts),
    entries: Int32Array.from(entries),
    pieces: Uint8Array.from({ length: joined.length }, (_, i) => joined.charCodeAt(i) & 0xff),
    ends: Int32Array.from(ends),
    offsets: Uint8Array.from(offsets),
    always: Int32Array.from(always)
  }
}
