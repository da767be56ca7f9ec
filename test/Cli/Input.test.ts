/**
 * What the command reads, as a real process: lines end at `\n` or `\r\n` only (a lone `\r` split them), an integer
 * flag is digits only (`--count=1e3` was 1000), an endless line is told as soon as it passes the bound (it was told
 * only at its end, so never on /dev/zero), and the from-source command docs/CLI.md gives runs where only Node is on
 * PATH (`bun run cli` did not).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test"
import { readFileSync } from "node:fs"
import { until } from "../support/Poll.ts"
import { command, runOnce } from "../support/Process.ts"

setDefaultTimeout(60_000)

const json = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line))

describe("parse: line ends", () => {
  test("a lone \\r is part of its line; \\r\\n and \\n end one", async () => {
    const result = await runOnce({}, ["parse"], undefined, "curl/8\rwget/1\r\nWget/1.21\ncurl/7")
    expect(result.code).toBe(0)
    expect(json(result.stdout).map((item) => item.userAgent)).toEqual(["curl/8\rwget/1", "Wget/1.21", "curl/7"])
  })

  test("a line endless on /dev/zero: its error line comes as soon as it passes the bound, not at its end", async () => {
    const proc = Bun.spawn([...command(), "parse", "/dev/zero"], { stdout: "pipe", stderr: "ignore", stdin: "ignore" })
    try {
      let out = ""
      const reader = proc.stdout.getReader()
      const decoder = new TextDecoder()
      void (async () => {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
          out += decoder.decode(chunk.value, { stream: true })
      })()
      await until(() => out.includes("\n"), 30_000)
      expect(JSON.parse(out.slice(0, out.indexOf("\n")))).toEqual({
        file: "/dev/zero",
        line: 1,
        error: {
          code: "invalid_request",
          message: "The line is longer than 65,536 characters, the most read of a line"
        }
      })
    } finally {
      proc.kill()
      await proc.exited
    }
  })
})

describe("integer flags: digits only", () => {
  for (const [flag, value] of [
    ["--count", "1e3"],
    ["--count", "1.0"],
    ["--count", "0x10"],
    ["--count", " 3"],
    ["--seed", "1e3"]
  ] as const) {
    test(`generate ${flag}=${JSON.stringify(value)} is a usage error: exit 2, nothing generated`, async () => {
      const result = await runOnce({}, ["generate", `${flag}=${value}`])
      expect(result.code).toBe(2)
      expect(result.stdout).not.toContain('"userAgent"')
      expect(result.stderr).toContain(`Invalid value for flag ${flag}: "${value}"`)
      expect(result.stderr).toContain("a whole number written in digits")
    })
  }

  test("digits, signed too, are read: --count=3 --seed=-5", async () => {
    const result = await runOnce({}, ["generate", "--count=3", "--seed=-5"])
    expect(result.code).toBe(0)
    expect(json(result.stdout)).toHaveLength(3)
  })
})

describe("from source, as docs/CLI.md writes it", () => {
  // the quick start's machine: Node and npm, Bun only inside node_modules
  const nodeOnly = "/usr/local/bin:/usr/bin:/bin"

  test("the documented command runs where node_modules/.bin is not on PATH; `bun run cli` is not what it says", async () => {
    const docs = readFileSync("docs/CLI.md", "utf8")
    expect(docs).not.toContain("bun run cli")
    expect(docs).toContain("npm run -s cli -- parse access.log")
    const env = { PATH: nodeOnly, HOME: process.env.HOME ?? "/tmp" }
    const noBun = Bun.spawnSync(["bash", "-c", "command -v bun"], { env })
    expect(noBun.exitCode).not.toBe(0)
    const viaNpm = Bun.spawnSync(["bash", "-c", "npm run -s cli -- generate --count 2 --seed 7"], { env })
    const direct = await runOnce({}, ["generate", "--count", "2", "--seed", "7"])
    expect(viaNpm.exitCode).toBe(0)
    expect(viaNpm.stdout.toString()).toBe(direct.stdout)
  })
})
