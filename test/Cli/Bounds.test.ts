/**
 * `tools-api parse` against input and output that misbehave, as real processes through a shell: an endless line is
 * one error line and the run goes on, in flat memory (it was buffered whole, hundreds of megabytes); output that
 * cannot be written (stdout closed, a full disk) ends the run with status 1 and one line on stderr (a closed stdout
 * exited 0 with everything lost).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MAX_LINE } from "../../src/Cli/Lines.ts"
import { binary } from "../support/Binary.ts"
import { command, outputOf } from "../support/Process.ts"
import { spawn } from "../support/Started.ts"

setDefaultTimeout(60_000)

const CURL = "curl/8.5.0"
const dir = mkdtempSync(join(tmpdir(), "tools-api-cli-bounds-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `script` run by bash with the program as "$@"; its exit status, stdout and stderr. */
const shell = async (script: string, program: ReadonlyArray<string>) => {
  const proc = spawn(["bash", "-c", script, "bash", ...program], {
    env: { PATH: process.env.PATH ?? "" },
    stdout: "pipe",
    stderr: "pipe"
  })
  return outputOf(proc)
}

/** Peak resident memory (kB, /usr/bin/time's %M) of `program parse` reading what `input` (a shell command) writes. */
const peak = async (input: string, program: ReadonlyArray<string>) => {
  const out = join(dir, `peak-${Math.random().toString(36).slice(2)}`)
  const result = await shell(`{ ${input}; } | /usr/bin/time -o '${out}' -f %M "$@" parse`, program)
  return { ...result, kB: Number(readFileSync(out, "utf8").trim().split("\n").at(-1)) }
}

describe("parse: a line longer than the bound", () => {
  test("an endless line (200 MB of NULs): one error line, the next line parsed, memory flat", async () => {
    const program = command()
    const lines = 200_000_000
    const [long, baseline] = [
      await peak(`head -c ${lines} /dev/zero; printf '\\n${CURL}\\n'`, program),
      await peak(`printf '${CURL}\\n'`, program)
    ]
    expect(long.code).toBe(1)
    const [first, second, ...rest] = long.stdout.trimEnd().split("\n")
    expect(JSON.parse(first!)).toEqual({
      line: 1,
      error: { code: "invalid_request", message: "The line is longer than 65,536 characters, the most read of a line" }
    })
    expect(JSON.parse(second!)).toMatchObject({ userAgent: CURL, browser: { name: "curl" } })
    expect(rest).toEqual([])
    expect(long.stderr).toContain("1 of 2 lines failed")
    // held whole, the line alone would take its 200 MB (twice that as a string); read as it streams by, the run
    // grows by what the collector has not yet reclaimed
    expect(long.kB - baseline.kB).toBeLessThan(lines / 2 / 1024)
  })

  test(`${MAX_LINE.toLocaleString("en")} characters is read (and judged as a user agent), one more is too long`, async () => {
    const path = join(dir, "edge.txt")
    writeFileSync(path, `${"a".repeat(MAX_LINE)}\n${"a".repeat(MAX_LINE + 1)}\n`)
    const result = await shell(`"$@" parse '${path}'`, command())
    const [atBound, over] = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(atBound).toMatchObject({ file: path, line: 1, error: { details: [{ path: "userAgent" }] } })
    expect(over).toMatchObject({ file: path, line: 2, error: { message: expect.stringContaining("longer than") } })
  })
})

describe("parse: output that cannot be written", () => {
  const input = join(dir, "100k.txt")
  writeFileSync(input, `${CURL}\n`.repeat(100_000))

  for (const from of ["source", "binary"] as const) {
    const program = async () => (from === "source" ? command() : command(await binary()))

    test(`${from}: stdout closed (>&-): status 1 and one line on stderr, not 0 with the output lost`, async () => {
      const result = await shell(`"$@" parse '${input}' >&-`, await program())
      expect(result.code).toBe(1)
      expect(result.stderr).toBe(
        "tools-api: cannot write the output to stdout: EBADF: stdout was closed when the command started\n"
      )
    })

    test(`${from}: a full disk (> /dev/full): status 1 and one line on stderr naming ENOSPC`, async () => {
      const result = await shell(`"$@" parse '${input}' > /dev/full`, await program())
      expect(result.code).toBe(1)
      expect(result.stderr).toStartWith("tools-api: cannot write the output to stdout: ENOSPC")
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1)
    })
  }

  test("stdout on /dev/null is written as asked: status 0, nothing on stderr", async () => {
    expect(await shell(`"$@" parse '${input}' > /dev/null`, command())).toEqual({ code: 0, stdout: "", stderr: "" })
  })

  test("a reader that stops early (| head -1): quietly, status 1", async () => {
    const result = await shell(`set -o pipefail; "$@" parse '${input}' | head -1 > /dev/null`, command())
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: "" })
  })
})
