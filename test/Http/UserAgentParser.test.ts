import { afterAll, describe, expect, test } from "bun:test"
import { CHROME_WINDOWS, errorOf, json, makeTestApp, UA_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 10_000 })
afterAll(() => app.dispose())

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"

describe("POST /v1/tools/user-agent-parser", () => {
  test("parse: the contract's example", async () => {
    const response = await app.post(UA_PATH, { operation: "parse", userAgent: IPHONE })
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body.success).toBe(true)
    expect(body.data).toMatchObject({
      userAgent: IPHONE,
      browser: { name: "Safari", version: "17.4" },
      os: { name: "iOS", version: "17.4" },
      device: { type: "Mobile", vendor: "Apple", model: "iPhone" },
      cpu: { architecture: "Unknown" }
    })
  })

  test("parse: Chrome on Windows is a desktop", async () => {
    const body = await json(await app.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS }))
    expect(body.data.browser.name).toBe("Chrome")
    expect(body.data.os.name).toBe("Windows")
    expect(body.data.device.type).toBe("Desktop")
  })

  test("parse: no field is ever null or empty, even for garbage", async () => {
    const body = await json(await app.post(UA_PATH, { operation: "parse", userAgent: "%%% garbage \u0000 ###" }))
    const strings: Array<unknown> = []
    const walk = (value: unknown): void => {
      if (value !== null && typeof value === "object") Object.values(value).forEach(walk)
      else strings.push(value)
    }
    walk(body.data)
    for (const value of strings) {
      expect(value === null || value === "").toBe(false)
    }
    expect(body.data.device.type).toBe("Unknown")
  })

  test("generate returns a user agent and its parse, and ignores userAgent", async () => {
    for (const userAgent of [undefined, 42, "", "Mozilla/5.0"]) {
      const response = await app.post(UA_PATH, {
        operation: "generate",
        ...(userAgent === undefined ? {} : { userAgent })
      })
      expect(response.status).toBe(200)
      const body = await json(response)
      expect(body.data.userAgent).toStartWith("Mozilla/5.0")
      expect(body.data.browser.name).not.toBe("Unknown")
    }
  })

  const rows: Array<[string, unknown, string]> = [
    ["operation missing", { userAgent: CHROME_WINDOWS }, "operation"],
    ["operation not a string", { operation: 1, userAgent: CHROME_WINDOWS }, "operation"],
    ["operation of another value", { operation: "Parse", userAgent: CHROME_WINDOWS }, "operation"],
    ["operation null", { operation: null }, "operation"],
    ["parse without userAgent", { operation: "parse" }, "userAgent"],
    ["userAgent not a string", { operation: "parse", userAgent: 42 }, "userAgent"],
    ["userAgent null", { operation: "parse", userAgent: null }, "userAgent"],
    ["userAgent empty", { operation: "parse", userAgent: "" }, "userAgent"],
    ["userAgent only white space", { operation: "parse", userAgent: " \t\n " }, "userAgent"],
    ["userAgent over 2048 characters", { operation: "parse", userAgent: "a".repeat(2049) }, "userAgent"]
  ]
  for (const [name, body, path] of rows) {
    test(`${name}: 400 naming ${path}`, async () => {
      const error = await errorOf(await app.post(UA_PATH, body), 400, "invalid_request")
      expect(error.details?.[0]?.path).toBe(path)
    })
  }

  test("2048 characters is accepted, counted as characters not UTF-16 units", async () => {
    expect((await app.post(UA_PATH, { operation: "parse", userAgent: "a".repeat(2048) })).status).toBe(200)
    expect((await app.post(UA_PATH, { operation: "parse", userAgent: "😀".repeat(2048) })).status).toBe(200)
  })
})
