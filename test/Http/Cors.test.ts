/** CORS_ORIGINS: browser apps on allowed origins can call the API and read its headers; nobody else gets CORS. */
import { afterAll, describe, expect, test } from "bun:test"
import { settingsOf } from "../support/Settings.ts"
import { errorOf, KEY, makeTestApp, WAGE_PATH } from "../support/TestApp.ts"

const APP_ORIGIN = "https://app.example.com"
const allowed = makeTestApp({
  perMinute: 2,
  authFailuresPerMinute: 1,
  env: { CORS_ORIGINS: `${APP_ORIGIN}, http://localhost:5173` }
})
const anyOrigin = makeTestApp({ env: { CORS_ORIGINS: "*" } })
const none = makeTestApp()
afterAll(async () => {
  await allowed.dispose()
  await anyOrigin.dispose()
  await none.dispose()
})

const preflight = (app: typeof allowed, origin: string, path = WAGE_PATH) =>
  app.request(path, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" }
  })

const corsHeaderNames = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith("access-control-"))

describe("an allowed origin", () => {
  test("gets its preflight answered 204, without a key and without touching any limit", async () => {
    for (let i = 0; i < 5; i++) {
      const response = await preflight(allowed, APP_ORIGIN)
      expect(response.status).toBe(204)
      expect(response.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN)
      expect(response.headers.get("vary")).toBe("Origin")
      expect(response.headers.get("access-control-allow-methods")).toBe("POST")
      expect(response.headers.get("access-control-allow-headers")).toBe(
        "Authorization, Content-Type, X-Request-Id, traceparent"
      )
      expect(response.headers.get("access-control-max-age")).toBe("600")
      expect(response.headers.get("x-request-id")).not.toBeNull()
      expect(await response.text()).toBe("")
    }
    // the failed-auth budget of 1 is untouched by the preflights: the first keyless request is still a 401
    await errorOf(
      await allowed.post(WAGE_PATH, { hourlyWage: 1 }, { key: null, headers: { origin: APP_ORIGIN } }),
      401,
      "unauthorized"
    )
  })

  test("reads the rate-limit headers, Retry-After and the request id, on successes and errors alike", async () => {
    const app = makeTestApp({ perMinute: 1, env: { CORS_ORIGINS: APP_ORIGIN } })
    try {
      const ok = await app.post(WAGE_PATH, { hourlyWage: 1 }, { headers: { origin: APP_ORIGIN } })
      const limited = await app.post(WAGE_PATH, { hourlyWage: 1 }, { headers: { origin: APP_ORIGIN } })
      expect([ok.status, limited.status]).toEqual([200, 429])
      for (const response of [ok, limited]) {
        expect(response.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN)
        expect(response.headers.get("vary")).toBe("Origin")
        const exposed = (response.headers.get("access-control-expose-headers") ?? "").split(", ")
        for (const name of ["RateLimit-Policy", "RateLimit", "X-RateLimit-Remaining", "Retry-After", "X-Request-Id"]) {
          expect(exposed).toContain(name)
        }
      }
    } finally {
      await app.dispose()
    }
  })

  test("with CORS_ORIGINS=*, any origin is allowed as *", async () => {
    const response = await anyOrigin.post(
      WAGE_PATH,
      { hourlyWage: 1 },
      { headers: { origin: "https://elsewhere.test" } }
    )
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
    expect((await preflight(anyOrigin, "https://elsewhere.test")).status).toBe(204)
  })
})

describe("no CORS", () => {
  test("for an origin not in the list: no CORS headers, and OPTIONS is the 405 it always was", async () => {
    const response = await allowed.post(
      WAGE_PATH,
      { hourlyWage: 1 },
      { key: KEY, headers: { origin: "https://evil.test" } }
    )
    expect(corsHeaderNames(response)).toEqual([])
    const options = await preflight(allowed, "https://evil.test")
    await errorOf(options, 405, "method_not_allowed")
    expect(corsHeaderNames(options)).toEqual([])
  })

  test("while CORS_ORIGINS is unset, and for a preflight on a path outside the API", async () => {
    expect(corsHeaderNames(await none.post(WAGE_PATH, { hourlyWage: 1 }, { headers: { origin: APP_ORIGIN } }))).toEqual(
      []
    )
    await errorOf(await preflight(none, APP_ORIGIN), 405, "method_not_allowed")
    await errorOf(await preflight(allowed, APP_ORIGIN, "/health"), 405, "method_not_allowed")
  })
})

test("CORS_ORIGINS that is not * or a list of origins stops the start, naming the variable", () => {
  for (const value of ["https://app.example.com/path", "app.example.com", "*, https://app.example.com"]) {
    expect(() => settingsOf({ CORS_ORIGINS: value })).toThrow(/^CORS_ORIGINS must be/)
  }
  expect(settingsOf({ CORS_ORIGINS: "https://App.Example.com/" }).corsOrigins).toEqual(new Set([APP_ORIGIN]))
})

test("with CORS_ORIGINS set, every response varies by Origin: other origins, none, cached documents", async () => {
  const answers = [
    await allowed.post(WAGE_PATH, { hourlyWage: 1 }, { headers: { origin: "https://evil.test" } }),
    await allowed.post(WAGE_PATH, { hourlyWage: 1 }),
    await allowed.request("/openapi.json"),
    await allowed.request("/docs", { headers: { "accept-encoding": "gzip" } }),
    await anyOrigin.request("/health")
  ]
  for (const answer of answers) expect(answer.headers.get("vary") ?? "").toContain("Origin")
  // unset: no Vary of ours
  expect((await none.request("/health")).headers.get("vary")).toBeNull()
})
