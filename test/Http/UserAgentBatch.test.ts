/** Issue 30: parse many (`userAgents`) and generate many (`count`) in one request, one token a user agent. */
import { afterAll, describe, expect, test } from "bun:test"
import { CHROME_WINDOWS, errorOf, json, makeTestApp, stoppedClock, UA_PATH } from "../support/TestApp.ts"

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"

const remaining = (response: Response) => Number(response.headers.get("x-ratelimit-remaining"))

describe("batches through the real handler", () => {
  const app = makeTestApp({ perMinute: 10_000 })
  afterAll(() => app.dispose())

  test("parse userAgents: data is an array of the single answers, in the order sent", async () => {
    const strings = [IPHONE, CHROME_WINDOWS, "%%% garbage", FIREFOX_LINUX, IPHONE]
    const response = await app.post(UA_PATH, { operation: "parse", userAgents: strings })
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body.success).toBe(true)
    expect(body.data.map((info: { userAgent: string }) => info.userAgent)).toEqual(strings)
    for (const [i, userAgent] of strings.entries()) {
      const one = await app.post(UA_PATH, { operation: "parse", userAgent })
      expect(response.headers.get("content-type")).toBe(one.headers.get("content-type"))
      // the same fields in the same order, nothing more
      expect(JSON.stringify(body.data[i])).toBe(JSON.stringify((await json(one)).data))
    }
    expect(body.data.map((info: { browser: { name: string } }) => info.browser.name)).toEqual([
      "Safari",
      "Chrome",
      "Unknown",
      "Firefox",
      "Safari"
    ])
  })

  test("a batch of one is an array of one; a single parse stays one object", async () => {
    const batch = await json(await app.post(UA_PATH, { operation: "parse", userAgents: [IPHONE] }))
    expect(batch.data).toHaveLength(1)
    const single = await json(await app.post(UA_PATH, { operation: "parse", userAgent: IPHONE }))
    expect(Array.isArray(single.data)).toBe(false)
    expect(batch.data[0]).toEqual(single.data)
  })

  test("generate count: that many strings, each with the filters, each its own parse", async () => {
    const body = await json(
      await app.post(UA_PATH, { operation: "generate", count: 20, browser: "Firefox", os: "Linux" })
    )
    expect(body.data).toHaveLength(20)
    for (const info of body.data) {
      expect(info.browser.name).toBe("Firefox")
      expect(info.os.name).toBe("Linux")
      const parsed = await json(await app.post(UA_PATH, { operation: "parse", userAgent: info.userAgent }))
      expect(parsed.data).toEqual(info)
    }
    // without a seed, twenty draws from real traffic are not all one string
    expect(new Set(body.data.map((info: { userAgent: string }) => info.userAgent)).size).toBeGreaterThan(1)
  })

  test("generate count with a seed: the same list every time, its first item the single answer", async () => {
    const ask = (extra: object) => app.post(UA_PATH, { operation: "generate", deviceType: "Mobile", seed: 7, ...extra })
    const first = await json(await ask({ count: 5 }))
    const again = await json(await ask({ count: 5 }))
    expect(again.data).toEqual(first.data)
    // each item drawn on its own: not the same string five times
    expect(new Set(first.data.map((info: { userAgent: string }) => info.userAgent)).size).toBeGreaterThan(1)
    const shorter = await json(await ask({ count: 3 }))
    expect(shorter.data).toEqual(first.data.slice(0, 3))
    const single = await json(await ask({}))
    expect(single.data).toEqual(first.data[0])
    const other = await json(
      await app.post(UA_PATH, { operation: "generate", deviceType: "Mobile", seed: 8, count: 5 })
    )
    expect(other.data).not.toEqual(first.data)
  })

  test("parse ignores count, generate ignores userAgent and userAgents", async () => {
    const parse = await json(await app.post(UA_PATH, { operation: "parse", userAgent: IPHONE, count: 5 }))
    expect(parse.data.userAgent).toBe(IPHONE)
    const generate = await json(await app.post(UA_PATH, { operation: "generate", userAgents: [IPHONE], seed: 1 }))
    expect(Array.isArray(generate.data)).toBe(false)
  })

  const rows: Array<[string, object, string, string]> = [
    [
      "a bad string names its index",
      { operation: "parse", userAgents: [IPHONE, CHROME_WINDOWS, "ok", " ", ""] },
      "userAgents[3]",
      "must not be empty or only white space"
    ],
    [
      "a string too long names its index",
      { operation: "parse", userAgents: ["x".repeat(2049)] },
      "userAgents[0]",
      "must be at most 2048 characters"
    ],
    [
      "an item not a string names its index",
      { operation: "parse", userAgents: [IPHONE, 42] },
      "userAgents[1]",
      "must be a string"
    ],
    [
      "userAgent and userAgents both",
      { operation: "parse", userAgent: IPHONE, userAgents: [IPHONE] },
      "userAgents",
      "cannot be sent with userAgent; send one"
    ],
    ["an empty list", { operation: "parse", userAgents: [] }, "userAgents", "must hold at least one user agent"],
    [
      "101 strings",
      { operation: "parse", userAgents: Array(101).fill(IPHONE) },
      "userAgents",
      "must hold at most 100 user agents; send more in several requests"
    ],
    [
      "userAgents not an array",
      { operation: "parse", userAgents: IPHONE },
      "userAgents",
      "must be an array of 1 to 100 user-agent strings"
    ],
    [
      "client hints with a batch",
      { operation: "parse", userAgents: [IPHONE], headers: { "sec-ch-ua-platform": '"Windows"' } },
      "headers",
      "describe one browser: send them with userAgent, not userAgents"
    ],
    ["count 0", { operation: "generate", count: 0 }, "count", "must be an integer from 1 to 100"],
    ["count 101", { operation: "generate", count: 101 }, "count", "must be an integer from 1 to 100"],
    ["count 2.5", { operation: "generate", count: 2.5 }, "count", "must be an integer from 1 to 100"],
    ['count "3"', { operation: "generate", count: "3" }, "count", "must be an integer from 1 to 100"],
    [
      "count with a combination no browser has",
      { operation: "generate", count: 3, browser: "Safari", os: "Windows" },
      "browser",
      "Safari does not run on Windows; choose os macOS or iOS, or another browser"
    ]
  ]
  for (const [name, body, path, message] of rows) {
    test(`${name}: 400 naming ${path}`, async () => {
      const error = await errorOf(await app.post(UA_PATH, body), 400, "invalid_request")
      expect(error.details).toEqual([{ path, message }])
      expect(error.message).toEndWith(message)
    })
  }

  test("the single form's errors are as before", async () => {
    const missing = await errorOf(await app.post(UA_PATH, { operation: "parse" }), 400, "invalid_request")
    expect(missing.details).toEqual([{ path: "userAgent", message: "is required" }])
    const operation = await errorOf(await app.post(UA_PATH, { operation: 5 }), 400, "invalid_request")
    expect(operation.message).toBe('operation must be one of "parse", "generate", got 5')
  })
})

describe("the limit counts user agents", () => {
  const batchOf = (n: number) => ({ operation: "parse", userAgents: Array(n).fill(IPHONE) })

  test("a batch takes one token a string, count one a string generated; the headers show what is left", async () => {
    const { clock } = stoppedClock()
    const app = makeTestApp({ perMinute: 100, clock })
    try {
      const batch = await app.post(UA_PATH, batchOf(7))
      expect(batch.status).toBe(200)
      expect(remaining(batch)).toBe(93)
      expect(batch.headers.get("ratelimit")).toStartWith('"default";r=93;')
      const generated = await app.post(UA_PATH, { operation: "generate", count: 10 })
      expect(generated.status).toBe(200)
      expect(remaining(generated)).toBe(83)
      expect(remaining(await app.post(UA_PATH, { operation: "parse", userAgent: IPHONE }))).toBe(82)
    } finally {
      await app.dispose()
    }
  })

  test("exact under concurrency: 30 batches of 7 at once against 100 tokens, each token taken once", async () => {
    const { clock } = stoppedClock()
    const app = makeTestApp({ perMinute: 100, clock })
    try {
      const responses = await Promise.all(Array.from({ length: 30 }, () => app.post(UA_PATH, batchOf(7))))
      const statuses = responses.map((r) => r.status)
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true)
      const passed = statuses.filter((s) => s === 200).length
      // at most 30 first tokens go before the batches' further 6: at least 11 batches of 7 fit in 100
      expect(passed).toBeGreaterThanOrEqual(11)
      expect(passed).toBeLessThanOrEqual(14)
      // a refused batch kept its one token spent, and took nothing more
      const left = 100 - 7 * passed - (30 - passed)
      const last = await app.post(UA_PATH, { operation: "parse", userAgent: IPHONE })
      expect(remaining(last)).toBe(Math.max(0, left - 1))
    } finally {
      await app.dispose()
    }
  })

  test("exact under concurrency, singles and batches mixed: every token taken once", async () => {
    const { clock } = stoppedClock()
    const app = makeTestApp({ perMinute: 100, clock })
    try {
      // 40 singles and 20 batches of 5 ask for 140 tokens at once; whatever the order, the tokens left are exactly
      // 100 minus what was taken: a single's one, a batch's five, or the one of a batch refused for its other four
      const bodies = [
        ...Array.from({ length: 40 }, () => ({ operation: "parse", userAgent: IPHONE })),
        ...Array.from({ length: 20 }, () => batchOf(5))
      ]
      const responses = await Promise.all(bodies.map((body) => app.post(UA_PATH, body)))
      let taken = 0
      for (const [i, response] of responses.entries()) {
        expect([200, 429]).toContain(response.status)
        const batch = i >= 40
        if (response.status === 200) taken += batch ? 5 : 1
        else if ((await errorOf(response, 429, "rate_limited")).message.includes("this request needs 5")) taken += 1
      }
      expect(taken).toBeLessThanOrEqual(100)
      const last = await app.post(UA_PATH, { operation: "parse", userAgent: IPHONE })
      expect(remaining(last)).toBe(Math.max(0, 100 - taken - 1))
    } finally {
      await app.dispose()
    }
  })

  test("fewer tokens than strings: 429 keeping its one token, Retry-After when enough are back", async () => {
    const { clock, advance } = stoppedClock()
    // 60 a minute: one token a second
    const app = makeTestApp({ perMinute: 60, clock })
    try {
      expect((await app.post(UA_PATH, batchOf(58))).status).toBe(200)
      const limited = await app.post(UA_PATH, batchOf(7))
      const error = await errorOf(limited, 429, "rate_limited")
      expect(error.message).toContain("this request needs 7")
      // 2 left: the request's own token taken, 1 left for the 6 more asked: 5 more tokens, 5 seconds
      expect(limited.headers.get("retry-after")).toBe("5")
      expect((error as { retryAfterSeconds?: number }).retryAfterSeconds).toBe(5)
      // the headers show what the bucket still holds
      expect(remaining(limited)).toBe(1)
      // the batch took its one token and nothing more: a batch of one passes and empties the bucket
      const fits = await app.post(UA_PATH, batchOf(1))
      expect(fits.status).toBe(200)
      expect(remaining(fits)).toBe(0)
      // a generate count is counted the same way: 3 seconds give it its 3 tokens
      advance(3_000)
      const back = await app.post(UA_PATH, { operation: "generate", count: 3 })
      expect(back.status).toBe(200)
      expect(remaining(back)).toBe(0)
    } finally {
      await app.dispose()
    }
  })

  test("a batch larger than the bucket can never pass: 400 saying the most a key may send, one token taken", async () => {
    const { clock } = stoppedClock()
    const app = makeTestApp({ perMinute: 50, clock })
    try {
      const response = await app.post(UA_PATH, batchOf(60))
      const error = await errorOf(response, 400, "invalid_request")
      expect(error.message).toBe("This request asks for 60 user agents; a key may send at most 50 at once")
      expect(remaining(response)).toBe(49)
      const count = await errorOf(await app.post(UA_PATH, { operation: "generate", count: 51 }), 400, "invalid_request")
      expect(count.message).toContain("at most 50 at once")
      // exactly the capacity passes
      expect((await app.post(UA_PATH, { operation: "generate", count: 48 })).status).toBe(200)
    } finally {
      await app.dispose()
    }
  })

  test("a batch its schema refuses takes its one token only: its size is never counted before it is decoded", async () => {
    const { clock } = stoppedClock()
    const app = makeTestApp({ perMinute: 100, clock })
    try {
      const bad = await app.post(UA_PATH, { operation: "parse", userAgents: [IPHONE, "", IPHONE] })
      expect(bad.status).toBe(400)
      expect(remaining(bad)).toBe(99)
      expect(remaining(await app.post(UA_PATH, { operation: "parse", userAgents: [] }))).toBe(98)
      expect(remaining(await app.post(UA_PATH, batchOf(101)))).toBe(97)
      expect(remaining(await app.post(UA_PATH, { operation: "generate", count: 2.5 }))).toBe(96)
      expect(
        remaining(await app.post(UA_PATH, { operation: "parse", userAgent: IPHONE, userAgents: [IPHONE, IPHONE] }))
      ).toBe(95)
    } finally {
      await app.dispose()
    }
  })
})
