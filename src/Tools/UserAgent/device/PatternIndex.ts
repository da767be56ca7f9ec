// "The first pattern of a list that matches" without running them all: each pattern's literal texts (one of which any
// match contains) are filed under windows of two or three characters; only patterns with a text in the string run.

/** The end of a text, a character of its own: a pattern's `$` is read as it, and `first` reads it after the string. */
export const END = "\u0000"

/**
 * Keys ascending: a three-character window `(c0 << 16) | (c1 << 8) | c2` or a two-character one `0x1000000 | (c0 << 8)
 * | c1`, low bytes only. Key k's texts are `starts[k]..starts[k + 1]`; text t is pattern `entries[t]`, its piece is
 * `pieces` up to `ends[t]`, the window at `offsets[t]` in it. `always`: the patterns without a text.
 */
export interface Filing {
  readonly keys: Int32Array
  readonly starts: Int32Array
  readonly entries: Int32Array
  readonly pieces: Uint8Array
  readonly ends: Int32Array
  readonly offsets: Uint8Array
  readonly always: Int32Array
}

/** The RegExp to run for a pattern's source: the caller keeps what it can afford to. */
export type Compile = (source: string) => RegExp

export type Found<A> = { readonly entry: A; readonly match: RegExpExecArray } | undefined

export interface PatternIndex<A> {
  /** The first entry, in list order, that `accept`s and whose pattern matches `text` (`lower` lower-cased). */
  readonly first: (text: string, lower: string, compile: Compile, accept?: (entry: A) => boolean) => Found<A>
  /** The same answer by running every pattern in order. */
  readonly scan: (text: string, compile: Compile, accept?: (entry: A) => boolean) => Found<A>
}

/** Where each key is in a filing's `keys` (an open-addressed table, -1 where empty), and which first two characters a
 * key may start with (1: a pair's, 2: a three-character window's, by the pair hashed): made once, by the generator
 * for the brands' filing, whose 15,000 keys cost a cold process ~10 ms. */
export interface Tables {
  readonly slots: Int32Array
  readonly opening: Uint8Array
}

const slotOf =
  (bits: number) =>
  (key: number): number =>
    Math.imul(key, 0x9e3779b1) >>> (32 - bits)
const openingOf = (c0: number, c1: number): number => ((c0 * 67) ^ c1) & 0xfff

export const tablesOf = (keys: Int32Array): Tables => {
  const bits = Math.max(10, Math.ceil(Math.log2(keys.length * 2)))
  const slot = slotOf(bits)
  const slots = new Int32Array(1 << bits).fill(-1)
  for (let at = 0; at < keys.length; at++) {
    let s = slot(keys[at]!)
    while (slots[s] !== -1) s = (s + 1) & ((1 << bits) - 1)
    slots[s] = at
  }
  const opening = new Uint8Array(1 << 12)
  for (const key of keys)
    if (key > 0xffffff) opening[openingOf((key >>> 8) & 0xff, key & 0xff)]! |= 1
    else opening[openingOf(key >>> 16, (key >>> 8) & 0xff)]! |= 2
  return { slots, opening }
}

/** Indexes `entries` (patterns `source(entry)`) by their `filing`; without one, `first` is `scan`. */
export const makePatternIndex = <A>(
  entries: ReadonlyArray<A>,
  source: (entry: A) => string,
  filing?: Filing,
  tables?: Tables
): PatternIndex<A> => {
  const tryEntry = (n: number, text: string, compile: Compile, accept?: (entry: A) => boolean): Found<A> => {
    const entry = entries[n]!
    const match = accept === undefined || accept(entry) ? compile(source(entry)).exec(text) : null
    return match === null ? undefined : { entry, match }
  }
  const scan: PatternIndex<A>["scan"] = (text, compile, accept) => {
    for (let n = 0; n < entries.length; n++) {
      const found = tryEntry(n, text, compile, accept)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (filing === undefined) return { first: (text, _lower, compile, accept) => scan(text, compile, accept), scan }
  const { keys, starts, entries: entryOf, pieces, ends, offsets, always } = filing
  const { slots, opening } = tables ?? tablesOf(keys)
  const bits = 31 - Math.clz32(slots.length)
  const slot = slotOf(bits)
  const charAt = (lower: string, i: number): number => (i < lower.length ? lower.charCodeAt(i) : 0)
  // the entries whose text occurs whole at `at`, where its key's window does
  const lookUp = (lower: string, key: number, at: number, into: Array<number>): void => {
    let s = slot(key)
    while (slots[s] !== -1 && keys[slots[s]!] !== key) s = (s + 1) & ((1 << bits) - 1)
    const k = slots[s]!
    if (k === -1) return
    for (let t = starts[k]!; t < starts[k + 1]!; t++) {
      const [from, to, begin] = [t === 0 ? 0 : ends[t - 1]!, ends[t]!, at - offsets[t]!]
      if (begin < 0) continue
      let c = from
      while (c < to && (charAt(lower, begin + c - from) & 0xff) === pieces[c]) c++
      if (c === to) into.push(entryOf[t]!)
    }
  }
  return {
    first: (text, lower, compile, accept) => {
      const candidates = [...always]
      const last = lower.length // END's place
      let c1 = charAt(lower, 0) & 0xff
      for (let i = 0; i < last; i++) {
        const c0 = c1
        c1 = charAt(lower, i + 1) & 0xff
        const open = opening[openingOf(c0, c1)]!
        if (open === 0) continue
        if ((open & 1) !== 0) lookUp(lower, 0x1000000 | (c0 << 8) | c1, i, candidates)
        if ((open & 2) !== 0 && i + 1 < last)
          lookUp(lower, (c0 << 16) | (c1 << 8) | (charAt(lower, i + 2) & 0xff), i, candidates)
      }
      // in list order, each once
      candidates.sort((a, b) => a - b)
      for (let c = 0; c < candidates.length; c++) {
        const found = candidates[c] === candidates[c - 1] ? undefined : tryEntry(candidates[c]!, text, compile, accept)
        if (found !== undefined) return found
      }
      return undefined
    },
    scan
  }
}
