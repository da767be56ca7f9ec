import { afterAll, describe, expect, test } from "bun:test"
import { appendFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { isFinished, PATIENCE_MS, QUIET_MS, readFinishedFile, SETTLE_MS } from "../../src/Services/FinishedFile.ts"

const dir = mkdtempSync(join(tmpdir(), "finished-file-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const NOW = 1_800_000_000_000

describe("isFinished: two reads a settle apart", () => {
  test.each([
    ["the same, ending in a newline", "k1\nk2\n", "k1\nk2\n", NOW - 10, true],
    ["the same and empty", "", "", NOW - 10, true],
    ["changed in between", "k1\n", "k1\nk2\n", NOW - 10, false],
    ["the same, the last line without a newline, written moments ago", "keyB_bb", "keyB_bb", NOW - 500, false],
    ["the same, the last line without a newline, quiet for long enough", "k1", "k1", NOW - QUIET_MS, true]
  ])("%s: %p", (_, before, after, mtimeMs, finished) => {
    expect(isFinished({ text: before, mtimeMs }, { text: after, mtimeMs }, NOW)).toBe(finished)
  })

  test("the same text with another modification time is another file", () => {
    expect(isFinished({ text: "k\n", mtimeMs: NOW - 20 }, { text: "k\n", mtimeMs: NOW - 10 }, NOW)).toBe(false)
  })
})

describe("readFinishedFile", () => {
  const run = (path: string) => Effect.runPromiseExit(Effect.map(readFinishedFile(path), (file) => file.text))

  test("a file without a final newline, untouched for a while (a mounted secret), is read at once", async () => {
    const path = join(dir, "secret")
    writeFileSync(path, "key-without-newline")
    utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    const started = Date.now()
    expect(await run(path)).toEqual(Exit.succeed("key-without-newline"))
    expect(Date.now() - started).toBeLessThan(QUIET_MS)
  })

  test("a line still being written is waited for, and read finished", async () => {
    const path = join(dir, "writing")
    writeFileSync(path, "key-one\nkeyB_bb")
    setTimeout(() => appendFileSync(path, "bbbbbb\n"), 400)
    expect(await run(path)).toEqual(Exit.succeed("key-one\nkeyB_bbbbbbbb\n"))
  })

  test("a file that keeps changing is given up after PATIENCE_MS, saying so", async () => {
    const path = join(dir, "churning")
    writeFileSync(path, "k0\n")
    const exit = await Effect.runPromise(
      Effect.gen(function* () {
        const reading = yield* Effect.forkChild(readFinishedFile(path))
        yield* Effect.yieldNow // its first read, then its first settle
        for (let i = 1; i <= PATIENCE_MS / SETTLE_MS + 5; i++) {
          appendFileSync(path, `k${i}\n`)
          yield* TestClock.adjust(SETTLE_MS)
        }
        return yield* Fiber.await(reading)
      }).pipe(Effect.provide(TestClock.layer()))
    )
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("was still being written after 10 s")
  })

  test("a missing file fails with its reason", async () => {
    const exit = await run(join(dir, "absent"))
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("could not be read (ENOENT)")
  })
})
