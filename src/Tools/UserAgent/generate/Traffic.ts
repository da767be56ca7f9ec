/** The traffic data set read and parsed a slice at a time: at once, it held every request of the process too long. */
import { Effect } from "effect"
import type { TrafficEntry } from "./Pools.ts"

// characters scanned between two looks at the budget
const SCAN_STEP = 16 * 1024

const OPEN = 0x7b // {
const CLOSE = 0x7d // }
const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b // [

const entryOf = (json: string): ReadonlyArray<TrafficEntry> => {
  const { userAgent, weight } = JSON.parse(json) as { userAgent?: unknown; weight?: unknown }
  return typeof userAgent === "string" && typeof weight === "number" ? [{ userAgent, weight }] : []
}

/** A scan for the top-level objects of a JSON array of objects (strings and nesting respected), a range at a time. */
const scanner = (text: string, found: (json: string) => void) => {
  let depth = 0
  let inString = false
  let start = -1
  let at = 0
  // a plain loop outside the generator below, which the JIT compiles well
  return (until: number): boolean => {
    const end = Math.min(text.length, until)
    for (let i = at; i < end; i++) {
      const c = text.charCodeAt(i)
      if (inString) {
        if (c === BACKSLASH) i++
        else if (c === QUOTE) inString = false
      } else if (c === QUOTE) inString = true
      else if (c === OPEN) {
        depth++
        if (depth === 2) start = i
      } else if (c === CLOSE) {
        depth--
        if (depth === 1 && start !== -1) {
          found(text.slice(start, i + 1))
          start = -1
        }
      } else if (c === OPEN_ARRAY && depth === 0) depth = 1
    }
    at = Math.max(at, end)
    return at < text.length
  }
}

/** The `userAgent` and `weight` of each object of a JSON array, each object parsed on its own, the rest garbage. */
export const trafficEntries = Effect.fnUntraced(function* (text: string, slice: Effect.Effect<void>) {
  const entries: Array<TrafficEntry> = []
  const scan = scanner(text, (json) => entries.push(...entryOf(json)))
  for (let until = SCAN_STEP; scan(until); until += SCAN_STEP) yield* slice
  return entries
})
