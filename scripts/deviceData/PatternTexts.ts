/**
 * The texts one of which any match of a pattern contains (`SM-[AT]\d{3}`: `sm-a` or `sm-t`), read by the generator.
 * What the reader does not follow (a lookaround, `\w`, `*`) is "any text": it can only add patterns to run.
 */
import { END } from "../../src/Tools/UserAgent/device/PatternIndex.ts"

export const gram = (s: string, i: number): number =>
  ((s.charCodeAt(i) & 0xff) << 16) | ((s.charCodeAt(i + 1) & 0xff) << 8) | (s.charCodeAt(i + 2) & 0xff)
export const pair = (s: string, i: number): number =>
  0x1000000 | ((s.charCodeAt(i) & 0xff) << 8) | (s.charCodeAt(i + 1) & 0xff)

/** What nearly every browser's string carries: a text is filed under a window outside these where it has one. */
export const COMMON = new Set<number>()
for (const word of [
  "mozilla/5.0 (linux; android 10; k) applewebkit/537.36 (khtml, like gecko) chrome/120.0.0.0 mobile safari/537.36",
  "mozilla/5.0 (linux; u; android 4.4.2; en-us; build/kot49h) applewebkit/534.30 version/4.0 mobile safari/534.30 wv)",
  "mozilla/5.0 (windows nt 10.0; win64; x64; rv:109.0) gecko/20100101 firefox/119.0 edg/120.0.0.0 opr/105.0.0.0",
  "mozilla/5.0 (macintosh; intel mac os x 10_15_7) (iphone; cpu iphone os 17_4 like mac os x) (ipad; x11; ubuntu)",
  "android 4.4; android 5.0; android 6.0; android 7.0; android 8.0; android 9; android 11; android 12; android 13",
  "android 14; android 15; android 16; version/17.4 chrome/131.0 firefox/134.0 safari/605.1.15",
  "0 build/ 1 build/ 2 build/ 3 build/ 4 build/ 5 build/ 6 build/ 7 build/ 8 build/ 9 build/ a build/ e build/",
  "samsungbrowser/23.0 ucbrowser/13.4 opera mini/ presto/2.12 mobile/15e148 trident/7.0; msie 9.0; .net clr"
])
  for (let i = 0; i + 2 < word.length; i++) COMMON.add(gram(word, i))

export const isCommon = (text: string): boolean => {
  if (text.length === 2) return true
  for (let i = 0; i + 2 < text.length; i++) if (!COMMON.has(gram(text, i))) return false
  return true
}

/** Either the exact texts a node can match (a small set), or texts one of which any match contains (null: none). */
type Info = { readonly exact: ReadonlyArray<string> } | { readonly some: ReadonlyArray<string> | null }

const MAX_EXACT = 16
const ANY: Info = { some: null }
const EMPTY: Info = { exact: [""] }
const BOUNDS = /\{(\d+)(,(\d*))?\}/y
const DIGITS: Info = { exact: [..."0123456789"] }

// computed once a set: sets are compared often
const scores = new WeakMap<ReadonlyArray<string>, { readonly shortest: number; readonly common: number }>()
const score = (set: ReadonlyArray<string>): { readonly shortest: number; readonly common: number } => {
  let known = scores.get(set)
  if (known === undefined) {
    let [shortest, common] = [set.length === 0 ? 0 : Infinity, 0]
    for (const text of set) {
      if (text.length < shortest) shortest = text.length
      if (text.length < 2 || isCommon(text)) common++
    }
    scores.set(set, (known = { shortest, common }))
  }
  return known
}
const quality = (set: ReadonlyArray<string> | null): number => (set === null ? 0 : score(set).shortest)

const commonCount = (set: ReadonlyArray<string> | null): number => (set === null ? Infinity : score(set).common)

const some = (info: Info): ReadonlyArray<string> | null => ("exact" in info ? info.exact : info.some)

const better = (a: ReadonlyArray<string> | null, b: ReadonlyArray<string> | null): ReadonlyArray<string> | null => {
  if (quality(a) >= 2 && quality(b) >= 2) {
    const [ca, cb] = [commonCount(a), commonCount(b)]
    if (ca !== cb) return ca < cb ? a : b
  }
  const [qa, qb] = [quality(a), quality(b)]
  if (qa !== qb) return qa > qb ? a : b
  return (a?.length ?? Infinity) <= (b?.length ?? Infinity) ? a : b
}

const concat = (parts: ReadonlyArray<Info>): Info => {
  let best: ReadonlyArray<string> | null = null
  let run: Array<string> | null = [""]
  for (const part of parts) {
    if ("exact" in part && run !== null && run.length * part.exact.length <= MAX_EXACT) {
      run = run.flatMap((head) => part.exact.map((tail) => head + tail))
      continue
    }
    if (run !== null) best = better(best, run)
    best = better(best, some(part))
    run = "exact" in part && part.exact.length <= MAX_EXACT ? [...part.exact] : null
  }
  if (best === null && run !== null) return { exact: [...new Set(run)] }
  return run === null ? { some: best } : { some: better(best, run) }
}

const alternate = (branches: ReadonlyArray<Info>): Info => {
  if (branches.every((b) => "exact" in b)) {
    const all = [...new Set(branches.flatMap((b) => (b as { exact: ReadonlyArray<string> }).exact))]
    if (all.length <= MAX_EXACT) return { exact: all }
    return { some: all }
  }
  const sets = branches.map(some)
  if (sets.some((s) => s === null || quality(s) === 0)) return ANY
  return { some: [...new Set(sets.flatMap((s) => s ?? []))] }
}

const classMembers = (body: string): ReadonlyArray<string> | null => {
  if (body.startsWith("^")) return null
  const members: Array<string> = []
  for (let i = 0; i < body.length; i++) {
    let c = body[i]!
    if (c === "\\") {
      const next = body[++i] ?? ""
      if (/[a-zA-Z0-9]/.test(next)) return null
      c = next
    } else if (body[i + 1] === "-" && i + 2 < body.length) {
      const [from, to] = [c.charCodeAt(0), body.charCodeAt(i + 2)]
      if (to - from > 9 || to < from) return null
      for (let code = from; code <= to; code++) members.push(String.fromCharCode(code))
      i += 2
      continue
    }
    members.push(c)
  }
  const lower = [...new Set(members.map((m) => m.toLowerCase()))]
  return lower.length > 0 && lower.length <= 10 ? lower : null
}

export const requiredTexts = (source: string): ReadonlyArray<string> | null => {
  let at = 0
  const alternation = (): Info => {
    const branches = [sequence()]
    while (source[at] === "|") {
      at++
      branches.push(sequence())
    }
    return alternate(branches)
  }
  const sequence = (): Info => {
    const parts: Array<Info> = []
    while (at < source.length && source[at] !== "|" && source[at] !== ")") parts.push(...quantified(atom()))
    return concat(parts)
  }
  const atom = (): Info => {
    const c = source[at++]!
    if (c === "(") {
      let zeroWidth = false
      if (source[at] === "?") {
        const kind = source.slice(at, at + 3)
        zeroWidth = /^\?(=|!|<=|<!)/.test(kind)
        at += kind.startsWith("?<=") || kind.startsWith("?<!") ? 3 : 2
        if (kind.startsWith("?<") && !zeroWidth) at = source.indexOf(">", at) + 1
      }
      const inner = alternation()
      at++ // ")"
      return zeroWidth ? EMPTY : inner
    }
    if (c === "[") {
      let end = at + (source[at] === "]" ? 1 : 0)
      while (end < source.length && source[end] !== "]") end += source[end] === "\\" ? 2 : 1
      const members = classMembers(source.slice(at, end))
      at = end + 1
      return members === null ? ANY : { exact: members }
    }
    if (c === "\\") {
      const e = source[at++] ?? ""
      if (e === "b" || e === "B") return EMPTY
      if (e === "d") return DIGITS
      if (/[a-zA-Z0-9]/.test(e)) return ANY
      return { exact: [e.toLowerCase()] }
    }
    // the end of the text is a character of its own, END, which `first` reads after the string it looks up
    if (c === "$") return { exact: [END] }
    if (c === "^") return EMPTY
    if (c === ".") return ANY
    return { exact: [c.toLowerCase()] }
  }
  const quantified = (info: Info): ReadonlyArray<Info> => {
    const q = source[at]
    let [min, max] = [0, Infinity]
    if (q === "?" || q === "*" || q === "+") {
      at++
      ;[min, max] = [q === "+" ? 1 : 0, q === "?" ? 1 : Infinity]
    } else if (q === "{" && ((BOUNDS.lastIndex = at), BOUNDS.test(source))) {
      BOUNDS.lastIndex = at
      const m = BOUNDS.exec(source)!
      at += m[0].length
      ;[min, max] = [Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] ? Number(m[3]) : Infinity]
    } else return [info]
    if (source[at] === "?" || source[at] === "+") at++ // lazy or possessive
    // n or more: n copies in a row (they continue a run of literals), then any text if more may follow
    if (min > 0) return [...Array.from({ length: Math.min(min, 4) }, () => info), ...(max > min ? [ANY] : [])]
    // zero or more of something other than a few exact texts breaks a run of literals
    if (max > 1 || !("exact" in info)) return [ANY]
    return [{ exact: [...new Set(["", ...info.exact])] }]
  }
  const info = alternation()
  const texts = some(info)
  return texts === null || quality(texts) < 2 ? null : texts
}
