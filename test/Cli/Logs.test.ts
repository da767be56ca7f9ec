/**
 * `tools-api parse` on access logs as a log analyst runs it, through the real process: each result joins back to its
 * log line (its number and fields), a line without a user agent is skipped and counted rather than failed, and
 * `--summary` counts what the parses say (as a table, or JSON with `--json`), each field's distinct values bounded
 * (bench/cli.ts measures the memory on a long log).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MAX_VALUES } from "../../src/Cli/Summary.ts"
import type { UserAgentInfo } from "../../src/Tools/UserAgent/Schemas.ts"
import { command, runOnce } from "../support/Process.ts"
import { makeTestApp, type TestApp } from "../support/TestApp.ts"
import { spawn } from "../support/Started.ts"

setDefaultTimeout(60_000)

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const SAMSUNG =
  "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
const CURL = "curl/8.5.0"

let app: TestApp
let dir: string
beforeAll(() => {
  app = makeTestApp()
  dir = mkdtempSync(join(tmpdir(), "tools-api-cli-logs-"))
})
afterAll(async () => {
  await app.dispose()
  rmSync(dir, { recursive: true, force: true })
})

const apiParse = async (userAgent: string) =>
  (
    (await (await app.post("/v1/tools/user-agent-parser", { operation: "parse", userAgent })).json()) as {
      data: UserAgentInfo
    }
  ).data

const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

/** A combined line as nginx writes it. */
const line = (ua: string, i = 1, request = `GET /page/${i}?q=1 HTTP/1.1`, status = "200") =>
  `198.51.100.${i % 250} - - [26/Nov/2026:10:00:${String(i % 60).padStart(2, "0")} +0000] "${request}" ${status} ${i} "-" "${ua}"`

const cli = async (args: ReadonlyArray<string>, stdin?: string) => {
  const result = await runOnce({}, args, undefined, stdin)
  return {
    ...result,
    get json(): Array<any> {
      return result.stdout
        .split("\n")
        .filter((text) => text !== "")
        .map((text) => JSON.parse(text))
    }
  }
}

describe("parse --log combined: results join back to the log", () => {
  test("each result: the line's number and fields under log, beside the API's data unchanged", async () => {
    const path = file(
      "fields.log",
      [
        line(CHROME, 1, String.raw`GET /a?b=\x22c\x22 HTTP/1.1`),
        // Apache's escape, a request that is no request line (a TLS handshake on a plain port), no status
        String.raw`2001:db8::7 - alice [01/Feb/2026:23:59:59 -0530] "\x16\x03\x01" - 0 "-" "${IPHONE}"`
      ].join("\n")
    )
    const result = await cli(["parse", "--log", "combined", path])
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" })
    expect(result.json).toEqual([
      {
        file: path,
        line: 1,
        log: {
          client: "198.51.100.1",
          time: "2026-11-26T10:00:01+00:00",
          method: "GET",
          path: '/a?b="c"',
          status: 200
        },
        ...(await apiParse(CHROME))
      },
      {
        file: path,
        line: 2,
        log: { client: "2001:db8::7", time: "2026-02-01T23:59:59-05:30", method: null, path: null, status: null },
        ...(await apiParse(IPHONE))
      }
    ])
    // from stdin: the same, without a file name; the API's data is every field but these three
    const fromStdin = await cli(["parse", "--log", "combined"], readFileSync(path, "utf8"))
    expect(fromStdin.json).toEqual(result.json.map(({ file: _, ...rest }) => rest))
    const { line: _, log: __, ...data } = fromStdin.json[0]
    expect(data).toEqual(await apiParse(CHROME))
  })

  test("a line without a user agent (- or empty) is skipped and counted, not an error: exit 0", async () => {
    const log = [line(CHROME, 1), line("-", 2), line("", 3), line(CURL, 4)].join("\n")
    const result = await cli(["parse", "--log", "combined"], `${log}\n`)
    expect(result.code).toBe(0)
    expect(result.json.map((item) => [item.line, item.userAgent])).toEqual([
      [1, CHROME],
      [4, CURL]
    ])
    expect(result.stderr).toBe("tools-api parse: 2 of 4 lines skipped: no user agent\n")
  })

  test("a time that is not $time_local's is not the combined format: an error line", async () => {
    const result = await cli(["parse", "--log", "combined"], `${line(CHROME).replace("Nov", "Foo")}\n`)
    expect(result.code).toBe(1)
    expect(result.json).toEqual([
      { line: 1, error: { code: "invalid_request", message: "The line is not in the combined log format" } }
    ])
  })
})

/** The summary's counts made from the API's own parses, one field at a time. */
const expected = async (userAgents: ReadonlyArray<string>) => {
  const counts: Record<string, Map<string, number>> = {}
  const add = (field: string, value: string) => {
    const map = (counts[field] ??= new Map())
    map.set(value, (map.get(value) ?? 0) + 1)
  }
  for (const ua of userAgents) {
    const data = await apiParse(ua)
    add("browser", data.browser.name)
    add("os", data.os.name)
    add("deviceType", data.device.type)
    add("vendor", data.device.vendor)
    if (data.bot.isBot) add("botCategory", data.bot.category)
  }
  return Object.fromEntries(
    Object.entries(counts).map(([field, map]) => [
      field,
      [...map].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1))
    ])
  )
}

describe("parse --summary", () => {
  const mix = [CHROME, CHROME, CHROME, SAMSUNG, SAMSUNG, IPHONE, GOOGLEBOT, CURL]
  const log = [...mix.map((ua, i) => line(ua, i + 1)), line("-", 9), "not a log line", line(SAMSUNG, 11)].join("\n")

  test("--json: lines, parsed, skipped, failed, bots, and each field's counts as the API parses them", async () => {
    const result = await cli(["parse", "--log", "combined", "--summary", "--json"], `${log}\n`)
    expect(result.code).toBe(1) // one line is not in the format: the summary is written all the same
    expect(result.stderr).toBe("tools-api parse: 1 of 11 lines failed\n")
    expect(result.json).toHaveLength(1)
    const summary = result.json[0]
    expect(summary).toMatchObject({ lines: 11, parsed: 9, skipped: 1, failed: 1, bots: 2 })
    const counts = await expected([...mix, SAMSUNG])
    for (const field of ["browser", "os", "deviceType", "vendor", "botCategory"])
      expect(summary[field]).toEqual({ values: counts[field], other: 0 })
    expect(summary.vendor.values).toContainEqual({ name: "Samsung", count: 3 })
    expect(summary.botCategory.values).toEqual([
      { name: "cli", count: 1 },
      { name: "crawler", count: 1 }
    ])
  })

  test("a table by default: the counts line, then each field's values by count with their share", async () => {
    const result = await cli(["parse", "--log", "combined", "--summary"], `${log.split("\n").slice(0, 9).join("\n")}\n`)
    expect(result.code).toBe(0)
    expect(result.stderr).toBe("") // the skip count is in the summary
    expect(result.stdout).toBe(
      [
        "9 lines: 8 parsed (2 bots), 1 skipped (no user agent), 0 failed",
        "",
        "Browser                       Count    Share",
        "Chrome                            5   62.5 %",
        "Googlebot                         1   12.5 %",
        "Safari                            1   12.5 %",
        "curl                              1   12.5 %",
        "",
        "OS                            Count    Share",
        "Windows                           3   37.5 %",
        "Android                           2   25.0 %",
        "Unknown                           2   25.0 %",
        "iOS                               1   12.5 %",
        "",
        "Device type                   Count    Share",
        "Desktop                           3   37.5 %",
        "Mobile                            3   37.5 %",
        "Unknown                           2   25.0 %",
        "",
        "Vendor                        Count    Share",
        "Unknown                           5   62.5 %",
        "Samsung                           2   25.0 %",
        "Apple                             1   12.5 %",
        "",
        "Bot category                  Count    Share",
        "cli                               1   50.0 %",
        "crawler                           1   50.0 %",
        ""
      ].join("\n")
    )
  })

  test("the table shows a field's first ten values and sums the rest on one row", async () => {
    const bots = Array.from({ length: 12 }, (_, i) => `ExampleCrawler${i}/1.0 (+https://example.com/bot)`)
    const result = await cli(["parse", "--summary"], `${[...bots, bots[0]].join("\n")}\n`)
    const browsers = result.stdout.split("\n\n")[1]!.split("\n")
    expect(browsers).toHaveLength(12)
    expect(browsers[1]).toBe("ExampleCrawler0                   2   15.4 %")
    expect(browsers.at(-1)).toBe("(others)                          2   15.4 %")
  })

  test("plain input (one user agent a line) is summarised too", async () => {
    const result = await cli(["parse", "--summary", "--json"], `${mix.join("\n")}\n`)
    expect(result.code).toBe(0)
    expect(result.json[0]).toMatchObject({ lines: 8, parsed: 8, skipped: 0, failed: 0, bots: 2 })
    expect(result.json[0].browser.values).toEqual((await expected(mix)).browser)
  })

  test("--json without --summary is a usage error: exit 2, saying so", async () => {
    const result = await cli(["parse", "--json"], `${CHROME}\n`)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("--summary")
  })

  test(`a field keeps ${MAX_VALUES.toLocaleString("en")} distinct values; a result with a later one counts in other`, async () => {
    const bots = Array.from({ length: MAX_VALUES + 200 }, (_, i) => `ExampleCrawler${i}/1.0 (+https://example.com/bot)`)
    const result = await cli(["parse", "--summary", "--json"], `${bots.join("\n")}\n${bots[0]}\n`)
    const summary = result.json[0]
    // the parser names such a bot's browser after it: one value a string
    expect(summary.browser.values).toHaveLength(MAX_VALUES)
    expect(summary.browser.values[0]).toEqual({ name: "ExampleCrawler0", count: 2 })
    expect(summary.browser.other).toBe(200)
    expect(summary.botCategory).toEqual({ values: [{ name: "crawler", count: MAX_VALUES + 201 }], other: 0 })
  })
})

test("on a terminal: the progress line counts skipped lines, the table goes to stdout", async () => {
  const input = file("tty.log", `${[line(CHROME, 1), line("-", 2)].join("\n")}\n`)
  const out = join(dir, "tty.txt")
  const shell = `${command()
    .map((part) => `'${part}'`)
    .join(" ")} parse --log combined --summary '${input}' > '${out}'`
  const proc = spawn(["script", "-qec", shell, "/dev/null"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" })
  const [terminal, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  expect(code).toBe(0)
  expect(terminal).toContain("2 lines, 1 skipped, 0 failed")
  expect(readFileSync(out, "utf8")).toStartWith("2 lines: 1 parsed (0 bots), 1 skipped (no user agent), 0 failed\n")
})
