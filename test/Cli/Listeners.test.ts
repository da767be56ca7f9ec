/**
 * The progress line writes to stderr once a second: each write asked for a new sink, and each sink added an `error`
 * listener to the stream, so a run of 11 s printed Node's MaxListenersExceededWarning on the user's terminal.
 */
import { afterEach, expect, test } from "bun:test"
import { Effect } from "effect"
import { Writable } from "node:stream"
import { stderr, stdout } from "../../src/Cli/Report.ts"
import { layerStdio } from "../../src/Platform/CliEnvironment.ts"

/** A terminal that keeps what is written to it. */
const fakeTerminal = () => {
  const written: Array<string> = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      written.push(String(chunk))
      callback()
    }
  })
  return { stream: Object.assign(stream, { isTTY: true }) as unknown as NodeJS.WriteStream, written }
}

const warnings: Array<Error> = []
const onWarning = (warning: Error) => warnings.push(warning)
process.on("warning", onWarning)
afterEach(() => {
  warnings.length = 0
})

test("100 progress updates on a terminal: one error listener a stream throughout, no warning", async () => {
  const err = fakeTerminal()
  const out = fakeTerminal()
  const before = err.stream.listenerCount("error")
  const counts = await Effect.runPromise(
    Effect.gen(function* () {
      const seen: Array<number> = []
      for (let i = 0; i < 100; i++) {
        yield* stderr(`\r\x1b[K${i} lines`)
        yield* stdout(`{"line":${i}}\n`)
        seen.push(err.stream.listenerCount("error"))
      }
      return seen
    }).pipe(Effect.provide(layerStdio({ stdout: out.stream, stderr: err.stream })))
  )
  expect(new Set(counts)).toEqual(new Set([before + 1]))
  expect(err.written).toHaveLength(100)
  expect(out.written).toHaveLength(100)
  // the run over, its listener is gone too
  expect(err.stream.listenerCount("error")).toBe(before)
  await new Promise((resolve) => setImmediate(resolve)) // a warning is emitted on the next tick
  expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([])
})
