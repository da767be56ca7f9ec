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
      device: { type: "Mobile", vendor: "Apple", model: "iPhone", name: "iPhone" },
      cpu: { architecture: "Unknown" }
    })
  })

  test("parse: a phone's model code comes with its brand and marketing name", async () => {
    // matomo-org/device-detector Tests/fixtures/phablet.yml:7926 (Xiaomi, Redmi Note 11 4G there)
    const userAgent =
      "Mozilla/5.0 (Linux; Android 11; 2201117TG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/92.0.4515.131 Mobile Safari/537.36"
    const body = await json(await app.post(UA_PATH, { operation: "parse", userAgent }))
    expect(body.data.device).toEqual({ type: "Mobile", vendor: "Xiaomi", model: "2201117TG", name: "Redmi Note 11 4G" })
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

  test("every echoed input is clipped to 64 characters: a 5,000-character client hint name", async () => {
    const name = `sec-ch-${"x".repeat(5_000)}`
    const response = await app.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS, headers: { [name]: 1 } })
    const text = await response.clone().text()
    const error = await errorOf(response, 400, "invalid_request")
    expect(error.details?.[0]?.path).toBe(`headers.sec-ch-${"x".repeat(57)}…`)
    expect(text.length).toBeLessThan(1_000)
  })

  test("a seed that is not a whole number says it must be an integer", async () => {
    const error = await errorOf(await app.post(UA_PATH, { operation: "generate", seed: 1.5 }), 400, "invalid_request")
    expect(error.details?.[0]).toEqual({ path: "seed", message: "must be an integer" })
  })

  test("the other operation's fields are ignored; a field neither defines is refused, named", async () => {
    const parse = await app.post(UA_PATH, {
      operation: "parse",
      userAgent: CHROME_WINDOWS,
      browser: "Firefox",
      seed: 1
    })
    expect((await json(parse)).data.browser.name).toBe("Chrome")
    const error = await errorOf(
      await app.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS, userAgnet: "typo" }),
      400,
      "invalid_request"
    )
    expect(error.details?.[0]?.path).toBe("userAgnet")
    for (const field of ["operation", "userAgent", "headers", "browser", "os", "deviceType", "seed"]) {
      expect(error.message).toContain(field)
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

  test("messages name what is allowed, never a schema's description", async () => {
    const operation = await errorOf(await app.post(UA_PATH, { operation: 5 }), 400, "invalid_request")
    expect(operation.message).toBe('operation must be one of "parse", "generate", got 5')
    const browser = await errorOf(
      await app.post(UA_PATH, { operation: "generate", browser: "Opera" }),
      400,
      "invalid_request"
    )
    expect(browser.details).toEqual([
      { path: "browser", message: 'must be one of "Chrome", "Firefox", "Safari", "Edge", "IE", got "Opera"' }
    ])
    const headers = await errorOf(
      await app.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS, headers: [] }),
      400,
      "invalid_request"
    )
    expect(headers.message).toBe("headers must be an object of header names to string values")
    const value = await errorOf(
      await app.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS, headers: { "Sec-CH-UA": 1 } }),
      400,
      "invalid_request"
    )
    expect(value.details?.[0]?.path).toBe("headers.Sec-CH-UA")
  })

  test("a Client Hint longer than its limit is a 400 naming the header; at the limit it is parsed", async () => {
    const android = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131.0.0.0 Mobile Safari/537.36"
    const hinted = (headers: Record<string, string>) =>
      app.post(UA_PATH, { operation: "parse", userAgent: android, headers })
    const model = await errorOf(await hinted({ "Sec-CH-UA-Model": "DATANG ".repeat(2300) }), 400, "invalid_request")
    expect(model.details).toEqual([{ path: "headers.Sec-CH-UA-Model", message: "must be at most 64 characters" }])
    const list = await errorOf(await hinted({ "sec-ch-ua": '"A";v="1", '.repeat(60) }), 400, "invalid_request")
    expect(list.details?.[0]?.path).toBe("headers.sec-ch-ua")
    const other = await errorOf(await hinted({ "sec-ch-ua-future": "x".repeat(129) }), 400, "invalid_request")
    expect(other.message).toBe("headers.sec-ch-ua-future must be at most 128 characters")
    const atLimit = await hinted({ "sec-ch-ua-model": "M".repeat(64), accept: "x".repeat(1000) })
    expect(atLimit.status).toBe(200)
  })

  test("a hinted model is text: replacement patterns in it cost nothing (the adversarial string answers at once)", async () => {
    // `` $` `` copied the text before "; K)" once per pair: 32 copies of 2 KB for the device patterns to read
    const userAgent = ("WAP " + "BOWAY ".repeat(400)).slice(0, 2036) + "9999; K)"
    const started = performance.now()
    const response = await app.post(UA_PATH, {
      operation: "parse",
      userAgent,
      headers: { "sec-ch-ua-model": "$`".repeat(32) }
    })
    expect(response.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  test("generate options: an unknown value or a combination no browser has is a 400 naming the field", async () => {
    for (const [body, path] of [
      [{ operation: "generate", os: "BeOS" }, "os"],
      [{ operation: "generate", deviceType: "Watch" }, "deviceType"],
      [{ operation: "generate", seed: 1.5 }, "seed"],
      [{ operation: "generate", seed: "7" }, "seed"],
      [{ operation: "generate", browser: "Safari", os: "Windows" }, "browser"]
    ] as const) {
      const error = await errorOf(await app.post(UA_PATH, body), 400, "invalid_request")
      expect(error.details?.[0]?.path).toBe(path)
    }
  })

  test("generate with options and a seed: the families asked for, the same string for the same seed", async () => {
    const body = { operation: "generate", browser: "Firefox", os: "Linux", deviceType: "Desktop", seed: 42 }
    const first = await json(await app.post(UA_PATH, body))
    const second = await json(await app.post(UA_PATH, body))
    expect(first.data.userAgent).toBe(second.data.userAgent)
    expect(first.data.browser.name).toBe("Firefox")
    expect(first.data.os.name).toBe("Linux")
    expect(first.data.device.type).toBe("Desktop")
  })

  test("client hints refine a frozen string", async () => {
    const body = await json(
      await app.post(UA_PATH, {
        operation: "parse",
        userAgent: CHROME_WINDOWS,
        headers: { "Sec-CH-UA-Platform": '"Windows"', "Sec-CH-UA-Platform-Version": '"15.0.0"' }
      })
    )
    expect(body.data.os).toEqual({ name: "Windows", version: "11" })
  })

  test("2048 characters is accepted, counted as characters not UTF-16 units", async () => {
    expect((await app.post(UA_PATH, { operation: "parse", userAgent: "a".repeat(2048) })).status).toBe(200)
    expect((await app.post(UA_PATH, { operation: "parse", userAgent: "😀".repeat(2048) })).status).toBe(200)
  })
})
