// Each distinct agent's share of its lines, kept by its string: bounded in entries and in characters, so long strings
// hold fewer. The command's one parse cache (Parse.ts turns the service's off): a share is far smaller than a parse.
import { LRUCache } from "lru-cache"

/** What an entry holds on average within the bound: a share of a common agent's JSON, and its string, fit. */
const CHARACTERS_PER_ENTRY = 1_024

/** `entries` 0 keeps none (undefined). */
export const makeKnown = <Part extends {}>(entries: number, size: (part: Part) => number) =>
  entries === 0
    ? undefined
    : new LRUCache<string, Part>({
        max: entries,
        maxSize: entries * CHARACTERS_PER_ENTRY,
        sizeCalculation: (part, userAgent) => Math.max(1, userAgent.length + size(part))
      })
