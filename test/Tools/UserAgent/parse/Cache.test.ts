import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { makeParseCache } from "../../../../src/Tools/UserAgent/parse/Cache.ts"
import type { UserAgentInfo } from "../../../../src/Tools/UserAgent/Schemas.ts"
import { parseUserAgent } from "../../../../src/Tools/UserAgent/parse/Normalise.ts"

/** An answer whose every field is derived from the string, so a mixed-up entry shows. */
const answerFor = (userAgent: string, isBot = userAgent.length % 2 === 0): UserAgentInfo => ({
  userAgent,
  browser: { name: `b:${userAgent}`, version: "1.0" },
  os: { name: "Unknown", version: userAgent.slice(0, 3) },
  device: { type: "Desktop", vendor: "", model: `m:${userAgent.length}`, name: "Unknown" },
  cpu: { architecture: "amd64" },
  engine: { name: "Blink", version: userAgent },
  bot: { isBot, name: isBot ? "x" : "Unknown", category: "Unknown" }
})

/** The rule the cache keeps: a least-recently-used map of at most `max` strings. */
const model = (max: number) => {
  const entries = new Map<string, UserAgentInfo>()
  return {
    get: (ua: string) => {
      const found = entries.get(ua)
      if (found !== undefined) (entries.delete(ua), entries.set(ua, found))
      return found
    },
    set: (ua: string, info: UserAgentInfo) => {
      entries.delete(ua)
      if (entries.size >= max) entries.delete(entries.keys().next().value!)
      entries.set(ua, info)
    }
  }
}

describe("ParseCache: an LRU of answers", () => {
  test("any sequence of gets and sets answers as a least-recently-used map of the same size does", () => {
    // mostly a few strings, so that hits, recency and eviction all happen; sometimes any text
    const ua = fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom("a", "b", "c", "d", "ü", "日本") },
      { weight: 1, arbitrary: fc.string({ maxLength: 300, unit: "grapheme" }) }
    )
    const op = fc.record({ set: fc.boolean(), ua })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 120 }), (max, ops) => {
        const cache = makeParseCache(max)
        const expected = model(max)
        for (const { set, ua } of ops) {
          if (set) {
            cache.set(ua, answerFor(ua))
            expected.set(ua, answerFor(ua))
          } else expect(cache.get(ua)).toEqual(expected.get(ua))
        }
      }),
      { numRuns: 300 }
    )
  })

  test("a real parse comes back equal, also for a string of several slots and non-ASCII text", () => {
    const cache = makeParseCache(10)
    const long = `Mozilla/5.0 (Linux; Android 14; Pixel 8 ☃) AppleWebKit/537.36 (KHTML, like Gecko) ${"x/1.0 ".repeat(300)}`
    for (const ua of [long, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0.0.0 Safari/537.36"]) {
      cache.set(ua, parseUserAgent(ua))
      expect(cache.get(ua)).toEqual(parseUserAgent(ua))
    }
    expect(cache.get(long.slice(0, -1))).toBeUndefined()
  })

  test("an answer with a control character in a field comes back whole, never split", () => {
    const cache = makeParseCache(10)
    const ua = "odd\u0001agent"
    cache.set(ua, answerFor(ua))
    expect(cache.get(ua)).toEqual(answerFor(ua))
  })

  test("the cache is bounded in bytes too: long strings evict older entries before the entry count is reached", () => {
    const cache = makeParseCache(2) // 512 slots of 128 bytes at the least: 64 KB
    const big = (i: number) => `${i}:${"y".repeat(12_000)}` // with its answer about 36 KB: one fits, not two
    cache.set(big(0), answerFor(big(0)))
    expect(cache.get(big(0))).toEqual(answerFor(big(0)))
    cache.set(big(1), answerFor(big(1)))
    expect(cache.get(big(0))).toBeUndefined()
    expect(cache.get(big(1))).toEqual(answerFor(big(1)))
  })

  test("an answer with a field that is not a string comes back as it was, so its text never comes back as a name", () => {
    const cache = makeParseCache(4)
    const ua = "Mozilla/5.0 (X11; Linux x86_64) constructor/7"
    const odd = { ...answerFor(ua), browser: { name: Object as unknown as string, version: "7" } }
    cache.set(ua, odd)
    expect(cache.get(ua)?.browser.name).toBe(Object as unknown as string)
  })
})
