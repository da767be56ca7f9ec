/**
 * The device database's patterns as the RegExps that run, and its model templates as names. A compiled pattern holds
 * ~4 KB outside the JavaScript heap (its compiled code) and costs ~11 µs to compile and run once, ~0.9 µs to run
 * again (`bun bench/devicePatterns.ts`); kept for good, the ~20,000 patterns a varied traffic reaches would hold
 * ~80 MB. So the service keeps the `RECENT` most recently used and compiles the others again when they come back; the
 * full scan that checks the index keeps them all.
 */
import { LRUCache } from "lru-cache"
import type { Compile } from "./PatternIndex.ts"

/** A pattern as Matomo runs it: it starts a token (node-device-detector's getBaseRegExp). */
export const devicePattern = (source: string): RegExp =>
  new RegExp(`(?:^|[^A-Z0-9_-]|[^A-Z0-9-]_|sprd-|MZ-)(?:${source.replace(/\//g, "\\/").replace(/\+\+/g, "+")})`, "i")

/**
 * How many characters of a string the patterns read, its start: what ua-parser-js reads too. Some of Matomo's
 * patterns backtrack over the whole string at each occurrence of their text (`BOWAY[ _-]([^/;]+)[ _]Build` on
 * `BOWAY BOWAY ...`), so their cost grows with the square or the cube of the length read; a device's tokens come
 * well before this (scripts/README.md), and scripts/devicePatternCost.ts times every pattern on this many.
 */
export const WINDOW = 500

/** How many compiled patterns the service keeps: ~4 MB. */
export const RECENT = 1024

/**
 * A compile that keeps the `size` most recently used patterns, by lru-cache: a hit allocates nothing (given one
 * options object for every call: `get`'s default is a new one), where a Map kept in recency order by a delete and a
 * set on every hit made ~8 MB more peak RSS over 20,000 cold strings.
 */
export const recentPatterns = (size: number): Compile => {
  const kept = new LRUCache<string, RegExp>({ max: size })
  const options = {}
  return (source) => {
    let pattern = kept.get(source, options)
    if (pattern === undefined) kept.set(source, (pattern = devicePattern(source)), options)
    return pattern
  }
}

/** A compile that keeps every pattern it compiled: for the full scan of scripts and tests. */
export const allPatterns = (): Compile => {
  const kept = new Map<string, RegExp>()
  return (source) => {
    let pattern = kept.get(source)
    if (pattern === undefined) kept.set(source, (pattern = devicePattern(source)))
    return pattern
  }
}

/** A name from Matomo's model template: $1..$n from the match, "_" as a space, no trailing " TD"; "Build" is none. */
export const modelName = (template: string | null, match: RegExpExecArray): string => {
  if (template === null) return ""
  // most templates are a name as it is
  if (!/[$_]| td$/i.test(template)) return template === "Build" ? "" : template.trim()
  const name = template
    .replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? "")
    .replace(/_/g, " ")
    .replace(/ TD$/i, "")
    .trim()
  return name === "Build" ? "" : name
}
