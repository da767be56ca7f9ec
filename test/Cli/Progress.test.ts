/**
 * The progress line, driven by a test clock onto a fake stderr: with the input's size known it shows the share of
 * bytes read and the time left (it showed only lines and lines a second), at most once a second on a terminal and
 * once each 10 s elsewhere (`--progress` on a log file); and the flag reaches a real process's non-terminal stderr.
 */
import { expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Writable } from "node:stream"
import { makeProgress } from "../../src/Cli/parse/Progress.ts"
import { layerStdio } from "../../src/Platform/CliEnvironment.ts"
import { runOnce } from "../support/Process.ts"

const fakeStream = (isTTY: boolean) => {
  const written: Array<string> = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      written.push(String(chunk))
      callback()
    }
  })
  return { stream: Object.assign(stream, { isTTY }) as unknown as NodeJS.WriteStream, written }
}

const drive = (terminal: boolean, steps: ReadonlyArray<readonly [number, number, number]>) => {
  const err = fakeStream(terminal)
  const out = fakeStream(false)
  return Effect.runPromise(
    Effect.gen(function* () {
      const progress = yield* makeProgress({ terminal, combined: false, total: 200 * 1_048_576 })
      for (const [ms, lines, bytes] of steps) {
        yield* TestClock.adjust(ms)
        yield* progress.tick({ lines, skipped: 0, failed: 0 }, bytes)
      }
      return err.written
    }).pipe(Effect.provide(Layer.merge(layerStdio({ stdout: out.stream, stderr: err.stream }), TestClock.layer())))
  )
}

test("on a terminal: the share of bytes read, the counts, lines a second and the time left, once a second", async () => {
  const written = await drive(true, [
    [500, 1_000, 10 * 1_048_576], // too soon
    [500, 2_000, 50 * 1_048_576], // 1 s: a quarter read
    [400, 3_000, 60 * 1_048_576], // too soon
    [1_000, 4_000, 100 * 1_048_576] // 2.4 s: half read
  ])
  expect(written).toEqual([
    "\r\x1b[K25.0 % of 200 MB, 2,000 lines, 0 failed, 2,000 lines/s, 3 s left",
    "\r\x1b[K50.0 % of 200 MB, 4,000 lines, 0 failed, 1,667 lines/s, 3 s left"
  ])
})

test("off a terminal (--progress): a whole line each 10 s", async () => {
  const written = await drive(false, [
    [1_000, 1_000, 1_048_576],
    [9_000, 10_000, 20 * 1_048_576],
    [60_000, 70_000, 190 * 1_048_576]
  ])
  expect(written).toEqual([
    "tools-api parse: 10.0 % of 200 MB, 10,000 lines, 0 failed, 1,000 lines/s, 1 min 30 s left\n",
    "tools-api parse: 95.0 % of 200 MB, 70,000 lines, 0 failed, 1,000 lines/s, 4 s left\n"
  ])
})

test("--progress writes the counts to a stderr that is not a terminal; without it, nothing", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-progress-"))
  try {
    const path = join(dir, "agents.txt")
    writeFileSync(path, "curl/8.5.0\nWget/1.21\n")
    const quiet = await runOnce({}, ["parse", path])
    const shown = await runOnce({}, ["parse", "--progress", path])
    expect(quiet.stderr).toBe("")
    expect(shown.stderr).toBe("tools-api parse: 2 lines, 0 failed\n")
    expect(shown.stdout).toBe(quiet.stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
