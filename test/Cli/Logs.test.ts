/**
 * `tools-api parse` on access logs as a log analyst runs it, through the real process: each result joins back to its
 * log line (its number and fields), and a line without a user agent is skipped and counted rather than failed
 * (Summary.test.ts has `--summary`).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
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
  expect(readFileSync(out, "utf8")).toStartWith("2 lines: 1 parsed, 1 skipped (no user agent), 0 failed\n")
})
