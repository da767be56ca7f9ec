// Compiled patterns hold memory outside the heap: the service keeps the recently used only, the full scan all.
import { LRUCache } from "lru-cache"
import type { Compile } from "./PatternIndex.ts"

/** A pattern as Matomo runs it: it starts a token (node-device-detector's getBaseRegExp). */
export const devicePattern = (source: string): RegExp =>
  new RegExp(`(?:^|[^A-Z0-9_-]|[^A-Z0-9-]_|sprd-|MZ-)(?:${source.replace(/\//g, "\\/").replace(/\+\+/g, "+")})`, "i")

/** The characters of a string the patterns read: some backtrack over all of it (scripts/devicePatternCost.ts). */
export const WINDOW = 500

export const RECENT = 1024

/** A compile that keeps the `size` most recently used patterns (one options object: `get`'s default is a new one). */
export const recentPatterns = (size: number): Compile => {
  const kept = new LRUCache<string, RegExp>({ max: size })
  const options = {}
  return (source) => {
    let pattern = kept.get(source, options)
    if (pattern === undefined) kept.set(source, (pattern = devicePattern(source)), options)
    return pattern
  }
}

export const allPatterns = (): Compile => {
  const kept = new Map<string, RegExp>()
  return (source) => kept.get(source) ?? kept.set(source, devicePattern(source)).get(source)!
}

/** A name from Matomo's model template: $1..$n from the match, "_" as a space, no trailing " TD"; "Build" is none. */
export const modelName = (template: string | null, match: ReadonlyArray<string | undefined>): string => {
  if (template === null) return ""
  if (!/[$_]| td$/i.test(template)) return template === "Build" ? "" : template.trim()
  const name = template
    .replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? "")
    .replace(/_/g, " ")
    .replace(/ TD$/i, "")
    .trim()
  return name === "Build" ? "" : name
}

/** A model's name as the database files it for a look-up by name: lower case, one space between words. */
export const plainName = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .trim()
