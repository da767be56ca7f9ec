import { afterAll, describe, expect, test } from "bun:test"
import { CHROME_WINDOWS, errorOf, json, KEY, makeTestApp, UA_PATH, WAGE_PATH } from "../support/TestApp.ts"

const app = makeTestApp()
afterAll(() => app.dispose())

const withAuthorization = (authorization: string | undefined, body: unknown = { hourlyWage: 10 }) =>
  app.request(WAGE_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization === undefined ? {} : { authorization }) },
    body: JSON.stringify(body)
  })

describe("authentication", () => {
  test("a valid key is accepted, with the scheme word in any case", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
      const response = await withAuthorization(`${scheme} ${KEY}`)
      expect(response.status).toBe(200)
    }
  })

  test("missing header: 401 with the realm and no error attribute", async () => {
    const response = await withAuthorization(undefined)
    await errorOf(response, 401, "unauthorized")
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tools-api"')
  })

  test("another scheme or an empty key: 401 without invalid_token", async () => {
    for (const header of [`Basic ${btoa("user:pass")}`, "Bearer", "Bearer ", "Bearer    ", KEY, `Token ${KEY}`]) {
      const response = await withAuthorization(header)
      await errorOf(response, 401, "unauthorized")
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tools-api"')
    }
  })

  test('an unknown bearer key: 401 with error="invalid_token"', async () => {
    const response = await withAuthorization("Bearer not-a-key")
    const error = await errorOf(response, 401, "unauthorized")
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tools-api", error="invalid_token"')
    expect(error.message).not.toContain("not-a-key")
  })

  test("scheme and key are separated by spaces (RFC 9110: 1*SP), as many as sent; a tab is not a separator", async () => {
    for (const header of [`Bearer  ${KEY}`, `bearer    ${KEY}`])
      expect((await withAuthorization(header)).status).toBe(200)
    const tab = await withAuthorization(`Bearer\t${KEY}`)
    await errorOf(tab, 401, "unauthorized")
    expect(tab.headers.get("www-authenticate")).toBe('Bearer realm="tools-api"')
  })

  test("the key is case-sensitive", async () => {
    await errorOf(await withAuthorization(`Bearer ${KEY.toUpperCase()}`), 401, "unauthorized")
  })

  test("the scheme is checked, not just skipped: seven arbitrary characters then the key is refused", async () => {
    await errorOf(await withAuthorization(`XXXXXXX${KEY}`), 401, "unauthorized")
    await errorOf(await withAuthorization(`Basic  ${KEY}`), 401, "unauthorized")
  })

  test("authentication comes before the body: a broken body without a key is 401, not 400", async () => {
    const response = await app.request(UA_PATH, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "{not json"
    })
    await errorOf(response, 401, "unauthorized")
  })

  test("the key never appears in a response", async () => {
    const response = await withAuthorization(`Bearer ${KEY}`, { operation: "parse", userAgent: CHROME_WINDOWS })
    const text = JSON.stringify(await json(response)) + JSON.stringify([...response.headers])
    expect(text).not.toContain(KEY)
  })
})

describe("failed authentication is limited per client address", () => {
  const limited = makeTestApp({ authFailuresPerMinute: 3, env: { TRUST_PROXY: "true" } })
  afterAll(() => limited.dispose())
  const from = (address: string, key: string) =>
    limited.post(WAGE_PATH, { hourlyWage: 10 }, { key, headers: { "x-forwarded-for": `203.0.113.9, ${address}` } })

  test("after the budget, requests without a valid key get 429 with Retry-After; a valid key still works", async () => {
    for (let i = 0; i < 3; i++) await errorOf(await from("198.51.100.7", "wrong"), 401, "unauthorized")
    const blocked = await from("198.51.100.7", "wrong")
    const refused = await errorOf(blocked, 429, "rate_limited")
    expect(String((refused as { retryAfterSeconds?: number }).retryAfterSeconds)).toBe(
      blocked.headers.get("retry-after") ?? "none"
    )
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect((await from("198.51.100.7", KEY)).status).toBe(200)
    // another address has its own budget
    await errorOf(await from("198.51.100.8", "wrong"), 401, "unauthorized")
  })

  test("an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
    for (let i = 0; i < 3; i++) await errorOf(await from("192.0.2.44", "wrong"), 401, "unauthorized")
    await errorOf(await from("::ffff:192.0.2.44", "wrong"), 429, "rate_limited")
    await errorOf(await from("::FFFF:192.0.2.44", ""), 429, "rate_limited")
  })

  test("without TRUST_PROXY, X-Forwarded-For is ignored: forged addresses share the peer's budget", async () => {
    const direct = makeTestApp({ authFailuresPerMinute: 2 })
    try {
      for (const forged of ["10.0.0.1", "10.0.0.2"]) {
        const response = await direct.post(WAGE_PATH, {}, { key: "wrong", headers: { "x-forwarded-for": forged } })
        await errorOf(response, 401, "unauthorized")
      }
      const third = await direct.post(WAGE_PATH, {}, { key: "wrong", headers: { "x-forwarded-for": "10.0.0.3" } })
      await errorOf(third, 429, "rate_limited")
    } finally {
      await direct.dispose()
    }
  })
})
