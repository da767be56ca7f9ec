/**
 * The parser's lookup tables are keyed by what a client sends: a product token, a browser name, a Client Hints
 * brand, platform or model. A name of `Object.prototype` ("constructor", "__proto__", "toString"...) in any of
 * those places is just a name: never a 500, never a field that is not a string, and never a poisoned cache.
 */
import { afterAll, describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { CHROME_WINDOWS, json, makeTestApp, UA_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 1_000_000 })
afterAll(() => app.dispose())

const NAMES = Object.getOwnPropertyNames(Object.prototype)

const ANDROID =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
const BASES = [CHROME_WINDOWS, ANDROID, FIREFOX, "Mozilla/5.0 (X11; Linux x86_64)"]

interface Case {
  readonly userAgent: string
  readonly headers?: Record<string, string>
}

/** Every place a name can stand in a string or a hint. */
const places: ReadonlyArray<(name: string, base: string) => Case> = [
  (name) => ({ userAgent: `Mozilla/5.0 (X11; Linux x86_64) ${name}/7` }),
  (name, base) => ({ userAgent: `${base} ${name}/1` }),
  (name) => ({ userAgent: `${name}/1.0` }),
  (name) => ({ userAgent: name }),
  (name) => ({ userAgent: `Mozilla/5.0 (${name}; ${name} 10) AppleWebKit/537.36 (KHTML, like Gecko) ${name}/1` }),
  (name) => ({ userAgent: `Mozilla/5.0 (Linux; Android 10; ${name} Build/1) AppleWebKit/537.36 Chrome/1 Mobile` }),
  (name) => ({ userAgent: `Mozilla/5.0 (compatible; ${name}/2.1; +http://example.com/bot)` }),
  (name) => ({ userAgent: `Mozilla/5.0 (X11; Linux x86_64) Puffin/4.0.4${name}` }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua": `"${name}";v="1", "Chromium";v="124"` } }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua": `"Not.A/Brand";v="8", "${name}";v="1"` } }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua-full-version-list": `"${name}";v="1.2.3"` } }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua": name, "sec-ch-ua-full-version-list": name } }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua-platform": `"${name}"`, "sec-ch-ua-mobile": "?1" } }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua-model": `"${name}"`, "sec-ch-ua-platform": '"Android"' } }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua-arch": `"${name}"`, "sec-ch-ua-bitness": '"64"' } }),
  (name, base) => ({ userAgent: base, headers: { "sec-ch-ua-form-factors": `"${name}"` } }),
  (name, base) => ({ userAgent: base, headers: { [name]: "1", "sec-ch-ua-platform": '"Windows"' } })
]

const strings = (value: unknown, path = "data"): Array<[string, unknown]> =>
  value !== null && typeof value === "object"
    ? Object.entries(value).flatMap(([key, inner]) => strings(inner, `${path}.${key}`))
    : [[path, value]]

const FIELDS = [
  "browser.name",
  "browser.version",
  "os.name",
  "os.version",
  "device.type",
  "device.vendor",
  "device.model",
  "cpu.architecture",
  "engine.name",
  "engine.version",
  "bot.name",
  "bot.category"
]

/** Parse twice (the second answer may come from the cache): both 200, every field a non-empty string. */
const check = async ({ userAgent, headers }: Case) => {
  for (let round = 0; round < 2; round++) {
    const response = await app.post(UA_PATH, { operation: "parse", userAgent, ...(headers ? { headers } : {}) })
    const body = await json(response)
    const where = `${JSON.stringify({ userAgent, headers })} round ${round}`
    expect({ where, status: response.status }).toEqual({ where, status: 200 })
    const fields = Object.fromEntries(strings(body.data))
    for (const field of FIELDS) {
      const value = fields[`data.${field}`]
      expect({ where, field, type: typeof value }).toEqual({ where, field, type: "string" })
      expect({ where, field, native: String(value).includes("[native code]") || value === "" }).toEqual({
        where,
        field,
        native: false
      })
    }
  }
}

describe("names of Object.prototype in a user agent or a hint", () => {
  test("the reported strings: 200, the name kept as the browser's own, then the same from the cache", async () => {
    for (const userAgent of ["Mozilla/5.0 (X11; Linux x86_64) constructor/7", `${CHROME_WINDOWS} constructor/1`]) {
      for (let round = 0; round < 2; round++) {
        const response = await app.post(UA_PATH, { operation: "parse", userAgent })
        expect(response.status).toBe(200)
        expect((await json(response)).data.browser).toEqual({ name: "constructor", version: userAgent.slice(-1) })
      }
    }
    const hinted = await app.post(UA_PATH, {
      operation: "parse",
      userAgent: CHROME_WINDOWS,
      headers: { "sec-ch-ua": '"constructor";v="1"' }
    })
    expect(hinted.status).toBe(200)
    expect((await json(hinted)).data.browser.name).toBe("constructor")
  })

  test("every name in every place: 200 and string fields", async () => {
    for (const name of NAMES) for (const place of places) await check(place(name, CHROME_WINDOWS))
  })

  test("property: any name, any place, any base string, mixed with other hints", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...NAMES),
        fc.integer({ min: 0, max: places.length - 1 }),
        fc.constantFrom(...BASES),
        fc.constantFrom(...NAMES),
        fc.integer({ min: 0, max: places.length - 1 }),
        async (name, at, base, other, otherAt) => {
          const one = places[at]!(name, base)
          const two = places[otherAt]!(other, one.userAgent)
          await check({ userAgent: two.userAgent, headers: { ...one.headers, ...two.headers } })
        }
      ),
      { numRuns: 200 }
    )
  })
})
