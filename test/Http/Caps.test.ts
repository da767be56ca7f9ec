/**
 * Memory stays bounded whatever clients send: the per-address and per-key bucket tables and the user-agent parse
 * cache hold at most their cap, driven through the HTTP layer with more distinct entries than the cap. (The soak in
 * bench/soak.ts measures the process's memory under the same pressure at the real caps.)
 */
import { afterAll, describe, expect, test } from "bun:test"
import { CHROME_WINDOWS, makeTestApp, UA_PATH, WAGE_PATH } from "../support/TestApp.ts"

const CAP = 50

describe("the bucket tables hold at most their cap", () => {
  test("failed authentications from more distinct addresses than the cap (TRUST_PROXY)", async () => {
    const app = makeTestApp({ maxEntries: CAP, authFailuresPerMinute: 5, env: { TRUST_PROXY: "true" } })
    try {
      for (let i = 0; i < CAP * 6; i++) {
        const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
        const response = await app.post(WAGE_PATH, {}, { key: "wrong", headers: { "x-forwarded-for": address } })
        expect(response.status).toBe(401)
        expect(app.buckets.size().addresses).toBeLessThanOrEqual(CAP)
      }
      expect(app.buckets.size().addresses).toBeGreaterThanOrEqual(CAP / 2)
      // the most recent addresses are still remembered: the newest one is blocked after its budget
      const newest = { "x-forwarded-for": `10.0.${((CAP * 6 - 1) >> 8) & 255}.${(CAP * 6 - 1) & 255}` }
      for (let i = 0; i < 4; i++) await app.post(WAGE_PATH, {}, { key: "wrong", headers: newest })
      expect((await app.post(WAGE_PATH, {}, { key: "wrong", headers: newest })).status).toBe(429)
    } finally {
      await app.dispose()
    }
  }, 30_000)

  test("more distinct keys than the cap", async () => {
    const keys = Array.from({ length: CAP * 4 }, (_, i) => `caps-test-key-${i}`)
    const app = makeTestApp({ keys, maxEntries: CAP })
    try {
      for (const key of keys) {
        expect((await app.post(WAGE_PATH, { hourlyWage: 1 }, { key })).status).toBe(200)
        expect(app.buckets.size().keys).toBeLessThanOrEqual(CAP)
      }
      expect(app.buckets.size().keys).toBeGreaterThanOrEqual(CAP / 2)
    } finally {
      await app.dispose()
    }
  }, 30_000)
})

describe("the user-agent parse cache is an LRU of UA_CACHE_SIZE entries", () => {
  const app = makeTestApp({ perMinute: 1_000, env: { UA_CACHE_SIZE: "3" } })
  afterAll(() => app.dispose())
  const counts = async () => {
    const text = await (await app.request("/metrics")).text()
    const read = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1])
    return { hits: read("ua_parse_cache_hits_total"), misses: read("ua_parse_cache_misses_total") }
  }
  const parse = (userAgent: string) => app.post(UA_PATH, { operation: "parse", userAgent })

  test("past the cap the least recently used string is dropped, the recently used one kept", async () => {
    const run = crypto.randomUUID()
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => `${CHROME_WINDOWS} caps/${run}/${name}`)
    const start = await counts()
    for (const ua of [a, b, c]) await parse(ua!) // 3 misses, cache full
    await parse(a!) // hit: a is now the most recent
    await parse(d!) // miss: evicts b, the least recently used
    await parse(a!) // hit
    await parse(b!) // miss: b was dropped
    const end = await counts()
    expect(end.hits - start.hits).toBe(2)
    expect(end.misses - start.misses).toBe(5)
  })

  test("after many more distinct strings than the cap, only the last 3 are answered from the cache", async () => {
    const run = crypto.randomUUID()
    const many = Array.from({ length: 40 }, (_, i) => `${CHROME_WINDOWS} caps/${run}/${i}`)
    for (const ua of many) await parse(ua)
    const start = await counts()
    for (const ua of many.slice(-3)) await parse(ua)
    const afterRecent = await counts()
    expect([afterRecent.hits - start.hits, afterRecent.misses - start.misses]).toEqual([3, 0])
    for (const ua of many.slice(0, 3)) await parse(ua)
    const afterOld = await counts()
    expect([afterOld.hits - afterRecent.hits, afterOld.misses - afterRecent.misses]).toEqual([0, 3])
  })
})
