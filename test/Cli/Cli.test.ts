/**
 * The command line as a user meets it: a real process from source (and the compiled binary for the commands a
 * deployment would run), its stdout, stderr and exit status. Every answer is compared with what the API itself
 * gives for the same input, through the real HttpApi handler in process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SETTINGS } from "../../src/Config.ts"
import { OTEL_NAMES } from "../../src/Observability/OtlpConfig.ts"
import { binary } from "../support/Binary.ts"
import { command, runOnce, start } from "../support/Process.ts"
import { KEY, makeTestApp, type TestApp } from "../support/TestApp.ts"
import { spawn } from "../support/Started.ts"

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
const CURL = "curl/8.5.0"

interface Result {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  /** stdout's lines, each read as JSON. */
  readonly json: Array<any>
}

/** Runs the command to completion, `stdin` fed to it (or nothing), with a clean environment. */
const cli = async (
  args: ReadonlyArray<string>,
  options: { readonly stdin?: string; readonly program?: string; readonly env?: Record<string, string> } = {}
): Promise<Result> => {
  const { code, stderr, stdout } = await runOnce(options.env ?? {}, args, options.program, options.stdin)
  return {
    code,
    stdout,
    stderr,
    get json() {
      return stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line))
    }
  }
}

let app: TestApp
let dir: string
const UA_PATH = "/v1/tools/user-agent-parser"

/** The API's `data` for this string. */
const apiParse = async (userAgent: string) =>
  ((await (await app.post(UA_PATH, { operation: "parse", userAgent })).json()) as { data: unknown }).data

/** A result line of `--log combined` without where it was and what the log said: the API's data. */
const data = ({ file: _, line: __, log: ___, ...rest }: Record<string, unknown>): unknown => rest

/** The API's whole error body for a parse of this string. */
const apiParseError = async (userAgent: string) =>
  ((await (await app.post(UA_PATH, { operation: "parse", userAgent })).json()) as { error: unknown }).error

const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

beforeAll(() => {
  app = makeTestApp()
  dir = mkdtempSync(join(tmpdir(), "tools-api-cli-test-"))
})

afterAll(async () => {
  await app.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** As nginx writes a combined line; `ua` goes in as given (already escaped where a test means it to be). */
const combined = (ua: string, i = 1) =>
  `203.0.113.${i} - - [26/Nov/2026:10:00:0${i % 10} +0000] "GET /a?b=\\"c\\" HTTP/1.1" 200 ${100 + i} "https://example.com/" "${ua}"`

describe("parse", () => {
  test("files, in order, one JSON line each, exactly the API's data", async () => {
    const a = file("a.txt", `${CHROME}\n${IPHONE}\n`)
    const b = file("b.txt", `${CURL}\r\n${FIREFOX}`) // CRLF, and no newline at the end
    const result = await cli(["parse", a, b])
    expect(result.code).toBe(0)
    expect(result.stderr).toBe("")
    expect(result.json).toEqual([
      await apiParse(CHROME),
      await apiParse(IPHONE),
      await apiParse(CURL),
      await apiParse(FIREFOX)
    ])
  }, 30_000)

  test("a large stdin (read 512 KiB at a time when redirected) answers line for line as the same file by path", async () => {
    const agents = [FIREFOX, CHROME, CURL, IPHONE]
    const text = `${Array.from({ length: 8_000 }, (_, i) => `${agents[i % agents.length]} n/${i}`).join("\n")}\n`
    expect(text.length).toBeGreaterThan(1 << 19)
    const fromStdin = await cli(["parse"], { stdin: text })
    const byPath = await cli(["parse", file("large.txt", text)])
    expect(fromStdin.code).toBe(0)
    expect(fromStdin.json).toHaveLength(8_000)
    expect(fromStdin.stdout).toBe(byPath.stdout)
  }, 60_000)

  test("stdin without a FILE, and for -", async () => {
    const fromStdin = await cli(["parse"], { stdin: `${FIREFOX}\n${CHROME}\n` })
    expect(fromStdin.code).toBe(0)
    expect(fromStdin.json).toEqual([await apiParse(FIREFOX), await apiParse(CHROME)])
    const mixed = await cli(["parse", file("c.txt", `${CURL}\n`), "-"], { stdin: `${IPHONE}\n\n` })
    expect(mixed.json).toEqual([
      await apiParse(CURL),
      await apiParse(IPHONE),
      { line: 2, error: await apiParseError("") }
    ])
  }, 30_000)

  test("a bad line is the API's error body on its own line, the run goes on, exit status 1", async () => {
    const tooLong = "a".repeat(2049)
    const result = await cli(["parse"], { stdin: `${CHROME}\n\n   \n${tooLong}\n${CURL}\n` })
    expect(result.code).toBe(1)
    expect(result.json).toHaveLength(5)
    expect(result.json[0]).toEqual(await apiParse(CHROME))
    expect(result.json[1]).toEqual({ line: 2, error: await apiParseError("") })
    expect(result.json[2]).toEqual({ line: 3, error: await apiParseError("   ") })
    expect(result.json[3]).toEqual({ line: 4, error: await apiParseError(tooLong) })
    expect(result.json[3].error).toMatchObject({ code: "invalid_request", details: [{ path: "userAgent" }] })
    expect(result.json[4]).toEqual(await apiParse(CURL))
    expect(result.stderr).toContain("3 of 5 lines failed")
  }, 30_000)

  test("2048 characters (counted as the API counts them, by code point) is still a good line", async () => {
    const emoji = "😀".repeat(2048) // 4096 UTF-16 units, 2048 characters
    const result = await cli(["parse"], { stdin: `${emoji}\n` })
    expect(result.code).toBe(0)
    expect(result.json).toEqual([await apiParse(emoji)])
  }, 30_000)

  test("a file that cannot be read is named on stderr, the others are parsed, exit status 1", async () => {
    const good = file("good.txt", `${CHROME}\n`)
    const result = await cli(["parse", join(dir, "missing.txt"), good])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("missing.txt")
    expect(result.json).toEqual([await apiParse(CHROME)])
    // after a file that was read: its stream opens only when its turn comes, so the failure is told, not thrown
    const after = await cli(["parse", good, join(dir, "missing.txt")])
    expect(after.code).toBe(1)
    expect(after.stderr).toBe(
      `tools-api parse: cannot read ${join(dir, "missing.txt")}: ENOENT: no such file or directory, open '${join(dir, "missing.txt")}'\n`
    )
    expect(after.json).toEqual([await apiParse(CHROME)])
  }, 30_000)

  test("--log combined: each line's user agent, nginx's and Apache's escapes undone; others are error lines", async () => {
    const log = [
      combined(CHROME, 1),
      combined(String.raw`Mozilla/5.0 \"quoted\" \x22too\x22 caf\xC3\xA9`, 2),
      "this is not an access log line",
      combined("-", 4),
      combined(IPHONE, 5)
    ].join("\n")
    const path = file("access.log", `${log}\n`)
    const result = await cli(["parse", "--log", "combined", path])
    expect(result.code).toBe(1)
    // line 4's "-" is skipped, not an error (Logs.test.ts); a result carries its line's place and fields beside the data
    expect(result.json).toHaveLength(4)
    expect(data(result.json[0])).toEqual(await apiParse(CHROME))
    expect(data(result.json[1])).toEqual(await apiParse('Mozilla/5.0 "quoted" "too" café'))
    expect(result.json[2]).toMatchObject({ file: path, line: 3, error: { code: "invalid_request" } })
    expect(result.json[3]).toMatchObject({ file: path, line: 5 })
    expect(data(result.json[3])).toEqual(await apiParse(IPHONE))
    // the same log through stdin gives the same answers, without a file name
    const fromStdin = await cli(["parse", "--log", "combined"], { stdin: `${log}\n` })
    expect(fromStdin.json.map(({ file: _, ...rest }) => rest)).toEqual(result.json.map(({ file: _, ...rest }) => rest))
    expect(fromStdin.json[2]).not.toHaveProperty("file")
  }, 30_000)

  test("stopped by SIGINT midway: what was parsed is out, and exit status 130, not 0", async () => {
    const proc = spawn([...command(), "parse"], {
      env: { PATH: process.env.PATH ?? "" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe"
    })
    proc.stdin.write(`${CHROME}\n`)
    await proc.stdin.flush()
    const reader = proc.stdout.getReader()
    const first = await reader.read() // the first answer is out; stdin stays open, so the run is not over
    proc.kill("SIGINT")
    expect(await proc.exited).toBe(130)
    expect(JSON.parse(new TextDecoder().decode(first.value).trim())).toEqual(await apiParse(CHROME))
  }, 30_000)

  test("a clean run says nothing on stderr when it is not a terminal", async () => {
    const result = await cli(["parse"], { stdin: `${CHROME}\n` })
    expect(result.stderr).toBe("")
  }, 30_000)

  test("on a terminal, stderr carries the progress line and the count at the end", async () => {
    const input = file("tty.txt", `${CHROME}\n${CURL}\n`)
    const out = join(dir, "tty.jsonl")
    // `script` gives the command a terminal; its stdout goes to a file, so what the terminal shows is stderr
    const shell = `${command()
      .map((part) => `'${part}'`)
      .join(" ")} parse '${input}' > '${out}'`
    const proc = spawn(["script", "-qec", shell, "/dev/null"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" })
    const [terminal, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
    expect(code).toBe(0)
    expect(terminal).toContain("2 lines, 0 failed")
    expect(await Bun.file(out).text()).toBe(
      `${JSON.stringify(await apiParse(CHROME))}\n${JSON.stringify(await apiParse(CURL))}\n`
    )
  }, 30_000)
})

describe("generate", () => {
  test("--count N with --seed: N lines, the same every run, the first the API's answer for that seed", async () => {
    const args = ["generate", "--count", "5", "--browser", "Firefox", "--os", "Android", "--seed", "42"]
    const [first, second] = await Promise.all([cli(args), cli(args)])
    expect(first.code).toBe(0)
    expect(first.json).toHaveLength(5)
    expect(second.json).toEqual(first.json)
    const api = await app.post(UA_PATH, { operation: "generate", browser: "Firefox", os: "Android", seed: 42 })
    expect(first.json[0]).toEqual(((await api.json()) as { data: unknown }).data)
    for (const item of first.json) {
      expect(item).toMatchObject({ browser: { name: "Firefox" }, os: { name: "Android" } })
      expect(item).toEqual(await apiParse(item.userAgent))
    }
    expect(new Set(first.json.map((item) => item.userAgent)).size).toBeGreaterThan(1)
  }, 30_000)

  test("one line by default, each filter applied, --device-type included", async () => {
    const one = await cli(["generate", "--device-type", "Tablet"])
    expect(one.code).toBe(0)
    expect(one.json).toHaveLength(1)
    expect(one.json[0]).toMatchObject({ device: { type: "Tablet" } })
  }, 30_000)

  test("a combination no browser has, or a count below 1: the API's error on stderr, nothing on stdout, exit 1", async () => {
    const safari = await cli(["generate", "--browser", "Safari", "--os", "Windows"])
    expect(safari.code).toBe(1)
    expect(safari.stdout).toBe("")
    const api = await app.post(UA_PATH, { operation: "generate", browser: "Safari", os: "Windows" })
    expect(JSON.parse(safari.stderr)).toEqual({ error: ((await api.json()) as { error: unknown }).error })
    const zero = await cli(["generate", "--count", "0"])
    expect(zero.code).toBe(1)
    expect(JSON.parse(zero.stderr)).toMatchObject({ error: { code: "invalid_request", details: [{ path: "count" }] } })
  }, 30_000)
})

describe("wage", () => {
  const apiWage = async (body: unknown) => (await app.post("/v1/tools/wage-estimator", body)).json() as Promise<any>

  test("--hourly and --annual answer as the API does (its body without success)", async () => {
    for (const [flag, field, value] of [
      ["--hourly", "hourlyWage", 25],
      ["--annual", "annualSalary", 50000],
      ["--hourly", "hourlyWage", 1.005]
    ] as const) {
      const result = await cli(["wage", flag, String(value)])
      expect(result.code).toBe(0)
      const { success: _, ...api } = await apiWage({ [field]: value })
      expect(result.json).toEqual([api])
    }
  }, 30_000)

  test("the flag's decimal is read as written, as the API reads a body's", async () => {
    const result = await cli(["wage", "--hourly", "1.00499999999999999999"])
    expect(result.code).toBe(0)
    const response = await app.post("/v1/tools/wage-estimator", '{"hourlyWage":1.00499999999999999999}', { raw: true })
    const { success: _, ...api } = (await response.json()) as any
    expect(result.json).toEqual([api])
    expect(api.estimates.hourly).toBe(1)
  })

  test("a bad value, both or neither: the API's error body on stderr, naming the flags where it names fields, exit 1", async () => {
    const inFlags = (error: unknown) =>
      JSON.parse(JSON.stringify(error).replaceAll("hourlyWage", "--hourly").replaceAll("annualSalary", "--annual"))
    for (const [args, body] of [
      [["--hourly", "0"], { hourlyWage: 0 }],
      [["--annual=-5"], { annualSalary: -5 }],
      [["--hourly", "abc"], { hourlyWage: "abc" }],
      [["--hourly", "3000000000"], { hourlyWage: 3_000_000_000 }],
      [["--hourly", "1", "--annual", "2"], { hourlyWage: 1, annualSalary: 2 }],
      [[], {}]
    ] as const) {
      const result = await cli(["wage", ...args])
      expect(result.code).toBe(1)
      expect(result.stdout).toBe("")
      expect(JSON.parse(result.stderr)).toEqual({ error: inFlags((await apiWage(body)).error) })
      expect(result.stderr).not.toMatch(/hourlyWage|annualSalary/)
    }
    expect(JSON.parse((await cli(["wage"])).stderr).error.message).toBe("Give --hourly or --annual")
  }, 30_000)
})

describe("the command line itself", () => {
  test("--help lists the commands and every environment variable the service reads, OTEL_* included", async () => {
    const result = await cli(["--help"])
    expect(result.code).toBe(0)
    for (const name of ["serve", "parse", "generate", "wage", "health"])
      expect(result.stdout).toMatch(new RegExp(`^  ${name} `, "m"))
    const variables = [...Object.keys(SETTINGS), ...OTEL_NAMES]
    expect(variables).toEqual(expect.arrayContaining([...OTEL_NAMES, "PORT", "UA_CACHE_SIZE"]))
    for (const name of variables) expect(result.stdout).toMatch(new RegExp(`\\b${name}\\b`))
  }, 30_000)

  test("each command's --help names its flags", async () => {
    const parse = await cli(["parse", "--help"])
    expect(parse.stdout).toContain("--log")
    const generate = await cli(["generate", "--help"])
    for (const flag of ["--count", "--browser", "--os", "--device-type", "--seed"])
      expect(generate.stdout).toContain(flag)
    const wage = await cli(["wage", "--help"])
    for (const flag of ["--hourly", "--annual"]) expect(wage.stdout).toContain(flag)
  }, 30_000)

  test("an unknown command or flag: the error on stderr, exit status 2", async () => {
    for (const args of [["bogus"], ["--bogus"], ["generate", "--count", "many"], ["parse", "--log", "apache"]]) {
      const result = await cli(args)
      expect(result.code).toBe(2)
      expect(result.stderr).not.toBe("")
    }
  }, 30_000)

  test("offline, only UA_CACHE_SIZE is read: a bad one is one line naming it, the server's settings do not matter", async () => {
    const bad = await cli(["parse"], { stdin: `${CHROME}\n`, env: { UA_CACHE_SIZE: "many" } })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toBe("")
    expect(bad.stderr.trim().split("\n")).toHaveLength(1)
    expect(bad.stderr).toContain("UA_CACHE_SIZE")
    const serverSettings = { PORT: "abc", WORKERS: "2", API_KEYS_FILE: "/nonexistent", UA_CACHE_SIZE: "0" }
    const fine = await cli(["parse"], { stdin: `${CHROME}\n`, env: serverSettings })
    expect(fine.code).toBe(0)
    expect(fine.json).toEqual([await apiParse(CHROME)])
  }, 30_000)

  for (const args of [[], ["serve"]]) {
    test(`tools-api ${args.join(" ") || "(no command)"} serves the API`, async () => {
      const running = await start({ API_KEYS: KEY }, undefined, 15_000, args)
      try {
        const response = await fetch(`${running.base}/v1/tools/wage-estimator`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ hourlyWage: 25 })
        })
        expect(response.status).toBe(200)
      } finally {
        expect(await running.stop()).toBe(0)
      }
    }, 30_000)
  }
})

describe("the compiled binary", () => {
  test("parses a combined log from stdin, generates, estimates, and lists its commands", async () => {
    const program = await binary()
    const parsed = await cli(["parse", "--log", "combined"], {
      program,
      stdin: `${combined(CHROME)}\nnot a log line\n`
    })
    expect(parsed.code).toBe(1)
    expect(data(parsed.json[0])).toEqual(await apiParse(CHROME))
    expect(parsed.json[1]).toMatchObject({ line: 2, error: { code: "invalid_request" } })
    const generated = await cli(["generate", "--count", "3", "--seed", "1"], { program })
    expect(generated.json).toEqual((await cli(["generate", "--count", "3", "--seed", "1"])).json)
    const wage = await cli(["wage", "--annual", "50000"], { program })
    expect(wage.json[0].estimates.monthly).toBe(4166.67)
    const help = await cli(["--help"], { program })
    expect(help.stdout).toContain("OTEL_EXPORTER_OTLP_ENDPOINT")
    expect(help.stdout).toMatch(/^ {2}parse /m)
  }, 120_000)
})
