/**
 * `parse --summary` as an analyst reads it, through the real process: humans and bots counted apart (bots were mixed
 * into the browser and OS counts), versions, statuses and paths for each, traffic by hour or by day, each field's
 * distinct values bounded; the numbers are the API's own parses, counted here independently.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { MAX_VALUES } from "../../src/Cli/summary/Summary.ts"
import type { UserAgentInfo } from "../../src/Tools/UserAgent/Schemas.ts"
import { runOnce } from "../support/Process.ts"
import { makeTestApp, type TestApp } from "../support/TestApp.ts"

setDefaultTimeout(60_000)

export const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const SAMSUNG =
  "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
const PROBE = "kube-probe/1.29"

let app: TestApp
beforeAll(() => {
  app = makeTestApp()
})
afterAll(() => app.dispose())

const apiParse = async (userAgent: string) =>
  (
    (await (await app.post("/v1/tools/user-agent-parser", { operation: "parse", userAgent })).json()) as {
      data: UserAgentInfo
    }
  ).data

/** A combined line as nginx writes it, at `day` and `hour` of November 2026. */
const line = (ua: string, path: string, status: number, day = 26, hour = 10) =>
  `198.51.100.7 - - [${day}/Nov/2026:${String(hour).padStart(2, "0")}:15:00 +0100] "GET ${path} HTTP/1.1" ${status} 512 "-" "${ua}"`

const summaryOf = async (args: ReadonlyArray<string>, stdin: string) => {
  const result = await runOnce({}, ["parse", ...args, "--summary", "--json"], undefined, stdin)
  return { ...result, summary: JSON.parse(result.stdout) }
}

/** Values sorted as the summary sorts them: by count, ties by name. */
const sorted = (values: ReadonlyArray<string>) =>
  [...values.reduce((counts, value) => counts.set(value, (counts.get(value) ?? 0) + 1), new Map<string, number>())]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1))

describe("parse --summary --json", () => {
  const traffic = [
    [CHROME, "/a?utm=1", 200, 10],
    [CHROME, "/a?utm=2", 200, 10],
    [SAMSUNG, "/b", 404, 11],
    [IPHONE, "/a", 200, 11],
    [GOOGLEBOT, "/robots.txt", 200, 11],
    [PROBE, "/healthz", 200, 12],
    [PROBE, "/healthz", 503, 12]
  ] as const
  const log = `${traffic.map(([ua, path, status, hour]) => line(ua, path, status, 26, hour)).join("\n")}\n`

  test("humans and bots apart: browsers and OSes with versions, models, statuses and paths for each", async () => {
    const { code, summary } = await summaryOf(["--log", "combined"], log)
    expect(code).toBe(0)
    const humans = await Promise.all([CHROME, CHROME, SAMSUNG, IPHONE].map(apiParse))
    expect(summary).toMatchObject({ lines: 7, parsed: 7, skipped: 0, failed: 0, humans: 4, bots: 3 })
    expect(summary.human.browser.values).toEqual(sorted(humans.map((data) => data.browser.name)))
    expect(summary.human.browserVersion.values).toEqual([
      { name: "Chrome 124", count: 3 },
      { name: "Safari 17", count: 1 }
    ])
    expect(summary.human.osVersion.values).toEqual([
      { name: "Windows 10", count: 2 },
      { name: "Android 13", count: 1 },
      { name: "iOS 17", count: 1 }
    ])
    expect(summary.human.deviceType.values).toEqual(sorted(humans.map((data) => data.device.type)))
    expect(summary.human.model.values).toContainEqual({ name: "Samsung Galaxy A53 5G", count: 1 })
    expect(summary.human.status.values).toEqual([
      { name: "200", count: 3 },
      { name: "404", count: 1 }
    ])
    // the query string is not part of the path counted
    expect(summary.human.path.values).toEqual([
      { name: "/a", count: 3 },
      { name: "/b", count: 1 }
    ])
    expect(summary.bot.category.values).toEqual([
      { name: "monitor", count: 2 },
      { name: "crawler", count: 1 }
    ])
    expect(summary.bot.name.values).toEqual([
      { name: "kube-probe", count: 2 },
      { name: "Googlebot", count: 1 }
    ])
    expect(summary.bot.path.values).toEqual([
      { name: "/healthz", count: 2 },
      { name: "/robots.txt", count: 1 }
    ])
    expect(summary.bot.status.values).toEqual([
      { name: "200", count: 2 },
      { name: "503", count: 1 }
    ])
    // no bot is counted among the browsers
    expect(summary.human.browser.values.map((value: { name: string }) => value.name)).not.toContain("Googlebot")
  })

  test("traffic by hour, humans by device type and bots, in the log's own time", async () => {
    const { summary } = await summaryOf(["--log", "combined"], log)
    expect(summary.timeline).toEqual({
      unit: "hour",
      other: 0,
      buckets: [
        { start: "2026-11-26T10:00+01:00", humans: 2, bots: 0, deviceType: { Desktop: 2 } },
        { start: "2026-11-26T11:00+01:00", humans: 2, bots: 1, deviceType: { Mobile: 2 } },
        { start: "2026-11-26T12:00+01:00", humans: 0, bots: 2, deviceType: {} }
      ]
    })
  })

  test("a log over more than three days is counted by day", async () => {
    const days = [20, 21, 21, 22, 23, 23, 23].map((day, i) => line(i % 2 === 0 ? CHROME : PROBE, "/", 200, day, i))
    const { summary } = await summaryOf(["--log", "combined"], `${days.join("\n")}\n`)
    expect(summary.timeline.unit).toBe("day")
    expect(
      summary.timeline.buckets.map((b: { start: string; humans: number; bots: number }) => [b.start, b.humans, b.bots])
    ).toEqual([
      ["2026-11-20T00:00+01:00", 1, 0],
      ["2026-11-21T00:00+01:00", 1, 1],
      ["2026-11-22T00:00+01:00", 0, 1],
      ["2026-11-23T00:00+01:00", 2, 1]
    ])
  })

  test("plain input (one user agent a line): humans and bots apart, no time, status or path", async () => {
    const { code, summary } = await summaryOf([], `${[CHROME, SAMSUNG, GOOGLEBOT].join("\n")}\n`)
    expect(code).toBe(0)
    expect(summary).toMatchObject({ lines: 3, parsed: 3, humans: 2, bots: 1, timeline: null })
    expect(summary.human.status).toEqual({ values: [], other: 0 })
    expect(summary.bot.name.values).toEqual([{ name: "Googlebot", count: 1 }])
  })

  test(`a field keeps ${MAX_VALUES.toLocaleString("en")} distinct values; a result with a later one counts in other`, async () => {
    const bots = Array.from({ length: MAX_VALUES + 200 }, (_, i) => `ExampleCrawler${i}/1.0 (+https://example.com/bot)`)
    const { summary } = await summaryOf([], `${bots.join("\n")}\n${bots[0]}\n`)
    expect(summary.bot.name.values).toHaveLength(MAX_VALUES)
    expect(summary.bot.name.values[0]).toEqual({ name: "ExampleCrawler0", count: 2 })
    expect(summary.bot.name.other).toBe(200)
    expect(summary.bot.category).toEqual({ values: [{ name: "crawler", count: MAX_VALUES + 201 }], other: 0 })
  })
})

describe("parse --summary (a table)", () => {
  test("the counts, humans' fields, bots' fields, then traffic by hour", async () => {
    const log = [line(CHROME, "/", 200), line(CHROME, "/x", 404), line(PROBE, "/healthz", 200, 26, 11), "", ""].join(
      "\n"
    )
    const result = await runOnce({}, ["parse", "--log", "combined", "--summary"], undefined, log)
    expect(result.code).toBe(1) // an empty line is not in the format
    const text = result.stdout
    expect(text).toStartWith(
      "4 lines: 3 parsed, 0 skipped (no user agent), 1 failed\nHumans 2 (66.7 %), bots 1 (33.3 %)\n\nHUMANS\n\n"
    )
    expect(text).toContain(
      "Browser version               Count    Share\nChrome 124                        2  100.0 %\n"
    )
    expect(text).toContain(
      "BOTS\n\nBot category                  Count    Share\nmonitor                           1  100.0 %\n"
    )
    expect(text).toEndWith(
      [
        "Traffic by hour          Humans     Bots  Desktop",
        "2026-11-26T10:00+01:00        2        0        2",
        "2026-11-26T11:00+01:00        0        1        0",
        ""
      ].join("\n")
    )
  })

  test("--json without --summary is a usage error: exit 2, saying so", async () => {
    const result = await runOnce({}, ["parse", "--json"], undefined, `${CHROME}\n`)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("--summary")
  })
})
