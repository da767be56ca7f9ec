/**
 * An ordered list of case-insensitive regular expressions that answers "the first one that matches" without running
 * them all (the index of the device database, DeviceDatabase.ts). The list comes with its `Filing`, made when the
 * data is generated (PatternTexts.ts): for each pattern, literal texts one of which any match must contain, each filed
 * under a window of two or three of its characters. A string is looked up window by window (a 4 KB table by the
 * first two characters, then a bit filter, then a Map); a filed text counts only where it occurs whole, and only the
 * patterns with such a text, plus the few from which no text can be read, run, in list order: the first match is the
 * one a scan of the whole list gives (`scan`, and scripts/deviceIndexCheck.ts, compare them).
 */

/** The end of a text, a character of its own: a pattern's `$` is read as it, and `first` adds it to the string. */
export const END = "\u0000"

/**
 * How a list of patterns is looked up, as JSON: `filed` holds [key, [entry, piece of a text, offset of the key's
 * window in the piece, entry, ...]] pairs, `always` the entries from which no text could be read. A key is a window
 * of three characters as `(c0 << 16) | (c1 << 8) | c2`, or of two as `0x1000000 | (c0 << 8) | c1`, each character's
 * code cut to its low byte (a collision only adds a candidate).
 */
export interface Filing {
  readonly filed: ReadonlyArray<readonly [number, ReadonlyArray<number | string>]>
  readonly always: ReadonlyArray<number>
}

export interface PatternIndex<A> {
  /**
   * The first entry, in list order, that `accept`s `text` and whose pattern matches it, with the match; `lower` is
   * `text` lower-cased.
   */
  readonly first: (
    text: string,
    lower: string,
    accept?: (entry: A) => boolean
  ) => { readonly entry: A; readonly match: RegExpExecArray } | undefined
  /** The same answer by running every pattern in order (what the index is checked against). */
  readonly scan: (
    text: string,
    accept?: (entry: A) => boolean
  ) => { readonly entry: A; readonly match: RegExpExecArray } | undefined
}

/**
 * Indexes `entries` by their `filing`; `compile` turns `source(entry)` into the RegExp that is run (once, on first
 * use). Without a filing `first` runs the patterns in order, cheaper for a short list.
 */
export const makePatternIndex = <A>(
  entries: ReadonlyArray<A>,
  source: (entry: A) => string,
  compile: (source: string) => RegExp,
  filing?: Filing
): PatternIndex<A> => {
  const compiled: Array<RegExp | undefined> = []
  const scan: PatternIndex<A>["scan"] = (text, accept) => {
    for (let n = 0; n < entries.length; n++) {
      const entry = entries[n]!
      if (accept !== undefined && !accept(entry)) continue
      const match = (compiled[n] ??= compile(source(entry))).exec(text)
      if (match !== null) return { entry, match }
    }
    return undefined
  }
  if (filing === undefined) return { first: (text, _lower, accept) => scan(text, accept), scan }
  const filed = new Map(filing.filed)
  const always = filing.always
  // a key's bit in a filter of 8 bits a key (at most 256 Kbit): most windows of a string file nothing, and a bit
  // test is cheaper than a Map
  const bits = Math.min(18, Math.max(10, Math.ceil(Math.log2(filed.size * 8))))
  const bit = (key: number): number => Math.imul(key, 0x9e3779b1) >>> (32 - bits)
  const filter = new Uint8Array(1 << (bits - 3))
  for (const key of filed.keys()) filter[bit(key) >>> 3]! |= 1 << (bit(key) & 7)
  // the entries whose text occurs whole at `at`, where its key's window does
  const lookUp = (lower: string, key: number, at: number, into: Array<number>): void => {
    const b = bit(key)
    if ((filter[b >>> 3]! & (1 << (b & 7))) === 0) return
    const list = filed.get(key)
    if (list === undefined) return
    for (let j = 0; j < list.length; j += 3)
      if (lower.startsWith(list[j + 1] as string, at - (list[j + 2] as number))) into.push(list[j] as number)
  }
  // by a window's first two characters (hashed into 4 KB): 1 if a pair may be filed under them, 2 if a
  // three-character window starting so may be
  const starts = new Uint8Array(1 << 12)
  const startOf = (c0: number, c1: number): number => ((c0 * 67) ^ c1) & 0xfff
  for (const key of filed.keys())
    if (key > 0xffffff) starts[startOf((key >>> 8) & 0xff, key & 0xff)]! |= 1
    else starts[startOf(key >>> 16, (key >>> 8) & 0xff)]! |= 2
  return {
    first: (text, lowerText, accept) => {
      const lower = lowerText + END
      const candidates = [...always]
      // the windows' keys rolled along the string, as `Filing` describes them
      let c1 = lower.charCodeAt(0) & 0xff
      for (let i = 0; i + 1 < lower.length; i++) {
        const c0 = c1
        c1 = lower.charCodeAt(i + 1) & 0xff
        const start = starts[startOf(c0, c1)]!
        if (start === 0) continue
        if ((start & 1) !== 0) lookUp(lower, 0x1000000 | (c0 << 8) | c1, i, candidates)
        if ((start & 2) !== 0 && i + 2 < lower.length)
          lookUp(lower, (c0 << 16) | (c1 << 8) | (lower.charCodeAt(i + 2) & 0xff), i, candidates)
      }
      candidates.sort((a, b) => a - b)
      for (let c = 0; c < candidates.length; c++) {
        const n = candidates[c]!
        if (n === candidates[c - 1]) continue
        const entry = entries[n]!
        if (accept !== undefined && !accept(entry)) continue
        const pattern = (compiled[n] ??= compile(source(entry)))
        const match = pattern.exec(text)
        if (match !== null) return { entry, match }
      }
      return undefined
    },
    scan
  }
}
