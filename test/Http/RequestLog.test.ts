/** The one log line of each request, as the service's own logger writes it. */
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { until } from "../support/Poll.ts"
import { KEY, makeTestApp, WAGE_PATH } from "../support/TestApp.ts"

/** The request lines among what the logger wrote, parsed. */
const requestLines = (lines: ReadonlyArray<string>) =>
  lines.map((line) => JSON.parse(line)).filter((entry) => entry.message === "request")

describe("the request log line", () => {
  test("is one JSON object a line: method, path without the query, status, duration, request id, key id", async () => {
    const logs: Array<string> = []
    const app = makeTestApp({ logs })
    try {
      const response = await app.post(
        `${WAGE_PATH}?q=secret`,
        { hourlyWage: 25 },
        { headers: { "x-request-id": "r-1" } }
      )
      expect(response.status).toBe(200)
      const [line, ...rest] = requestLines(logs)
      expect(rest).toEqual([])
      const { durationMs, ...annotations } = line.annotations
      expect(annotations).toEqual({
        method: "POST",
        path: WAGE_PATH,
        status: 200,
        requestId: "r-1",
        keyId: expect.stringMatching(/^key_[0-9a-f]{8}$/)
      })
      expect(durationMs).toBeGreaterThan(0)
      expect(line.level).toBe("INFO")
      expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp)
      expect(logs.join("\n")).not.toContain(KEY)
    } finally {
      await app.dispose()
    }
  })

  test("a request without a valid key is logged without a key id, and the key sent is never written", async () => {
    const logs: Array<string> = []
    const app = makeTestApp({ logs })
    try {
      await app.post(WAGE_PATH, { hourlyWage: 25 }, { key: "not-a-real-key-7f3a9" })
      const [line] = requestLines(logs)
      expect(line.annotations.status).toBe(401)
      expect(line.annotations.keyId).toBeUndefined()
      expect(logs.join("\n")).not.toContain("not-a-real-key-7f3a9")
    } finally {
      await app.dispose()
    }
  })

  test("quotes at most 64 characters of a long path, cut with an ellipsis", async () => {
    const logs: Array<string> = []
    const app = makeTestApp({ logs })
    try {
      const long = `/${"a".repeat(15_000)}`
      expect((await app.request(long)).status).toBe(404)
      const [line] = requestLines(logs)
      expect(line.annotations.path).toBe(`${long.slice(0, 64)}…`)
      expect(logs.join("\n").length).toBeLessThan(1_000)
    } finally {
      await app.dispose()
    }
  })

  test("LOG_LEVEL above info writes no request line; LOG_FORMAT=pretty writes one line for people", async () => {
    const quiet: Array<string> = []
    const warning = makeTestApp({ logs: quiet, env: { LOG_LEVEL: "warning" } })
    const readable: Array<string> = []
    const pretty = makeTestApp({ logs: readable, env: { LOG_FORMAT: "pretty" } })
    try {
      expect((await warning.post(WAGE_PATH, { hourlyWage: 25 })).status).toBe(200)
      expect(quiet).toEqual([])
      expect((await pretty.post(WAGE_PATH, { hourlyWage: 25 })).status).toBe(200)
      // one line a request, as with JSON: Effect's logfmt line, the annotations as key=value
      expect(readable.length).toBe(1)
      expect(readable[0]!.split("\n").length).toBe(1)
      expect(readable[0]).toMatch(/^timestamp=\S+ level=INFO fiber=#\d+ message=request method=POST /)
      expect(readable[0]).toContain(`path=${WAGE_PATH} status=200 durationMs=`)
      expect(readable[0]).toMatch(/ requestId=\S+ keyId=key_[0-9a-f]{8}$/)
    } finally {
      await warning.dispose()
      await pretty.dispose()
    }
  })

  test("a health probe answered 200 is logged at debug only; a 503 while draining at info", async () => {
    const logs: Array<string> = []
    const app = makeTestApp({ logs })
    const debugLogs: Array<string> = []
    const debug = makeTestApp({ logs: debugLogs, env: { LOG_LEVEL: "debug" } })
    try {
      expect((await app.request("/health")).status).toBe(200)
      expect((await app.post(WAGE_PATH, { hourlyWage: 25 })).status).toBe(200)
      expect(requestLines(logs).map((line) => [line.annotations.path, line.level])).toEqual([[WAGE_PATH, "INFO"]])

      expect((await debug.request("/health")).status).toBe(200)
      expect(requestLines(debugLogs).map((line) => [line.annotations.path, line.level])).toEqual([["/health", "DEBUG"]])

      const drained = Effect.runPromise(app.drain.drain())
      await until(() => app.drain.isDraining())
      expect((await app.request("/health")).status).toBe(503)
      expect(requestLines(logs).at(-1)).toMatchObject({ level: "INFO", annotations: { path: "/health", status: 503 } })
      await drained
    } finally {
      await app.dispose()
      await debug.dispose()
    }
  })
})
