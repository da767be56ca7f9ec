import { afterAll, describe, expect, test } from "bun:test"
import { ToolsApi } from "../../src/Api.ts"
import { makeApiRoutes } from "../../src/Http.ts"
import { ApiRoutes } from "../../src/Http/Routes.ts"
import { ToolsLive } from "../../src/Tools/index.ts"
import { errorOf, KEY, makeTestApp, OTHER_KEY, UA_PATH, WAGE_PATH } from "../support/TestApp.ts"

const parseRateLimit = (value: string | null) => {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(value ?? "")
  if (match === null) throw new Error(`bad RateLimit header: ${value}`)
  return { remaining: Number(match[1]), reset: Number(match[2]) }
}

describe("rate limit headers", () => {
  const app = makeTestApp()
  afterAll(() => app.dispose())

  test("every /v1 response to an authenticated caller carries the policy and the state", async () => {
    const before = Math.floor(Date.now() / 1000)
    const response = await app.post(WAGE_PATH, { hourlyWage: 10 })
    expect(response.status).toBe(200)
    expect(response.headers.get("ratelimit-policy")).toBe('"default";q=100;w=60')
    const state = parseRateLimit(response.headers.get("ratelimit"))
    expect(state.remaining).toBe(99)
    expect(state.reset).toBe(1) // one token is back 600 ms later
    expect(response.headers.get("x-ratelimit-limit")).toBe("100")
    expect(response.headers.get("x-ratelimit-remaining")).toBe("99")
    const reset = Number(response.headers.get("x-ratelimit-reset"))
    expect(reset).toBeGreaterThanOrEqual(before + 1)
    expect(reset).toBeLessThanOrEqual(before + 3)
  })

  test("400 and 422 answers carry them too, and unauthenticated answers do not", async () => {
    const bad = await app.post(UA_PATH, { operation: "nope" })
    expect(bad.status).toBe(400)
    expect(bad.headers.get("ratelimit")).not.toBeNull()
    const invalid = await app.post(WAGE_PATH, { hourlyWage: -1 })
    expect(invalid.status).toBe(422)
    expect(invalid.headers.get("x-ratelimit-remaining")).not.toBeNull()
    const anonymous = await app.post(WAGE_PATH, { hourlyWage: 1 }, { key: null })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get("ratelimit")).toBeNull()
  })
})

describe("token bucket per key", () => {
  test("bursts up to the capacity, then 429 with Retry-After and headers; other keys unaffected", async () => {
    const app = makeTestApp({ perMinute: 3 })
    try {
      const remaining: Array<number> = []
      for (let i = 0; i < 3; i++) {
        const response = await app.post(WAGE_PATH, { annualSalary: 50000 })
        expect(response.status).toBe(200)
        remaining.push(Number(response.headers.get("x-ratelimit-remaining")))
      }
      expect(remaining).toEqual([2, 1, 0])
      const limited = await app.post(WAGE_PATH, { annualSalary: 50000 })
      const error = await errorOf(limited, 429, "rate_limited")
      expect(error.message).toContain("3 requests per minute")
      // capacity 3 a minute: one token every 20 s
      const retryAfter = Number(limited.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(19)
      expect(retryAfter).toBeLessThanOrEqual(20)
      expect((error as { retryAfterSeconds?: number }).retryAfterSeconds).toBe(retryAfter)
      expect(parseRateLimit(limited.headers.get("ratelimit")).remaining).toBe(0)
      expect(limited.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60')
      expect((await app.post(WAGE_PATH, { annualSalary: 50000 }, { key: OTHER_KEY })).status).toBe(200)
    } finally {
      await app.dispose()
    }
  })

  test("two keys whose ids in logs (key_ + 8 hex digits) are the same still have a bucket each", async () => {
    // 8 hex digits are 32 bits: among ~80,000 keys two share them more often than not. Find such a pair.
    const seen = new Map<string, string>()
    let pair: [string, string] | undefined
    for (let i = 0; pair === undefined; i++) {
      const key = `collide-${i}`
      const id = Bun.SHA256.hash(key, "hex").slice(0, 8)
      const earlier = seen.get(id)
      if (earlier === undefined) seen.set(id, key)
      else pair = [earlier, key]
    }
    const app = makeTestApp({ keys: pair, perMinute: 1 })
    try {
      expect((await app.post(WAGE_PATH, { hourlyWage: 1 }, { key: pair[0] })).status).toBe(200)
      expect((await app.post(WAGE_PATH, { hourlyWage: 1 }, { key: pair[0] })).status).toBe(429)
      expect((await app.post(WAGE_PATH, { hourlyWage: 1 }, { key: pair[1] })).status).toBe(200)
    } finally {
      await app.dispose()
    }
  })

  test("every authenticated request takes a token, whatever its outcome", async () => {
    const app = makeTestApp({ perMinute: 3 })
    try {
      expect((await app.post(WAGE_PATH, {})).status).toBe(400)
      expect((await app.post(WAGE_PATH, { hourlyWage: 0 })).status).toBe(422)
      expect((await app.post(UA_PATH, "not json", { raw: true })).status).toBe(400)
      await errorOf(await app.post(WAGE_PATH, { hourlyWage: 20 }, { key: KEY }), 429, "rate_limited")
    } finally {
      await app.dispose()
    }
  })

  test("health, openapi.json and docs are neither authenticated nor limited", async () => {
    const app = makeTestApp({ perMinute: 1 })
    try {
      for (let i = 0; i < 3; i++) {
        for (const path of ["/health", "/openapi.json", "/docs"]) {
          const response = await app.request(path)
          expect(response.status).toBe(200)
          expect(response.headers.get("ratelimit")).toBeNull()
        }
      }
    } finally {
      await app.dispose()
    }
  })
})

// The middlewares add their headers through the edge (`CurrentRequest`); served without it, through the framework.
describe("the API's routes served without the edge", () => {
  const app = makeTestApp({
    served: { app: makeApiRoutes(ToolsApi, ToolsLive), routes: ApiRoutes.layer(ToolsApi) },
    perMinute: 1
  })
  afterAll(() => app.dispose())

  test("an answer still carries the rate limit's headers, a refusal its Retry-After, a 401 its challenge", async () => {
    const allowed = await app.post(WAGE_PATH, { hourlyWage: 10 })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get("x-ratelimit-remaining")).toBe("0")
    expect(allowed.headers.get("x-request-id")).toBeNull()
    const refused = await app.post(WAGE_PATH, { hourlyWage: 10 })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    const anonymous = await app.post(WAGE_PATH, { hourlyWage: 1 }, { key: null })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get("www-authenticate")).toStartWith("Bearer")
  })
})
