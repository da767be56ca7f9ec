/** Standard output's line sink: the lines of one turn in one write, in order, never holding the caller back. */
import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { makeSink, PIPE_BUF, type SinkOptions, type Write } from "../../src/Observability/LogSink.ts"
import { spawn } from "../support/Started.ts"

const turn = () => new Promise((resolve) => setImmediate(resolve))
const again = () => Object.assign(new Error("again"), { code: "EAGAIN" })
const written = (sink: ReturnType<typeof makeSink>) => new Promise<void>((resolve) => sink.whenWritten(resolve))

/**
 * A sink whose writes are recorded; `accept(bytes)` says how many bytes each write takes (or throws), and the write
 * calls back at once, as a reader that keeps up would.
 */
const recorded = (accept: (bytes: number) => number = (bytes) => bytes, options: SinkOptions = {}) => {
  const chunks: Array<Buffer> = []
  const write: Write = (data, done) => {
    const bytes = Buffer.from(data)
    let taken: number
    try {
      taken = accept(bytes.byteLength)
    } catch (error) {
      return done(error as NodeJS.ErrnoException, 0)
    }
    chunks.push(bytes.subarray(0, taken))
    done(null, taken)
  }
  const sink = makeSink(write, { retryMs: 0, ...options })
  return { sink, chunks, writes: () => chunks.map((chunk) => chunk.toString()) }
}

describe("the line sink", () => {
  test("the lines of one turn leave in one write, in order, each ending in a newline; the next turn writes again", async () => {
    const { sink, writes } = recorded()
    sink.line("a")
    sink.line("b")
    expect(writes()).toEqual([])
    await turn()
    expect(writes()).toEqual(["a\nb\n"])
    sink.line("c")
    await turn()
    expect(writes()).toEqual(["a\nb\n", "c\n"])
  })

  test("whenWritten writes what waits without waiting for the turn (as at shutdown), and nothing twice", async () => {
    const { sink, writes } = recorded()
    sink.line("last words")
    await written(sink)
    expect(writes()).toEqual(["last words\n"])
    await turn()
    expect(writes()).toEqual(["last words\n"])
  })

  test("partial writes and a full non-blocking pipe (EAGAIN) lose nothing, in bytes, multi-byte characters included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { maxLength: 20 }),
        fc.nat(),
        async (lines, seed) => {
          let n = seed
          const { sink, chunks } = recorded((bytes) => {
            n = (n * 1103515245 + 12345) % 2147483648
            if (n % 5 === 0) throw again()
            return Math.min(bytes, 1 + (n % 7))
          })
          for (const line of lines) sink.line(line)
          const expected = lines.map((l) => `${l}\n`).join("")
          while (Buffer.concat(chunks).byteLength < Buffer.byteLength(expected)) await Bun.sleep(1)
          expect(Buffer.concat(chunks).toString()).toBe(expected)
        }
      ),
      { numRuns: 50 }
    )
  })

  test("each write holds whole lines, at most PIPE_BUF bytes of them unless one line is longer alone", async () => {
    // lengths up to 3,000 units of 1 to 4 bytes: some lines alone are over PIPE_BUF, many together are
    const line = fc
      .tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom("a", "\u00e9", "\u{1F600}", '"'), fc.string())
      .map(([n, unit, tail]) => unit.repeat(n) + tail)
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 40 }), fc.boolean(), async (lines, atExit) => {
        const { sink, chunks } = recorded()
        for (const text of lines) sink.line(text)
        if (atExit) await written(sink)
        else await turn()
        expect(Buffer.concat(chunks).toString()).toBe(lines.map((l) => `${l}\n`).join(""))
        for (const chunk of chunks) {
          const text = chunk.toString()
          expect(text.endsWith("\n")).toBe(true)
          if (chunk.byteLength > PIPE_BUF) expect(text.indexOf("\n")).toBe(text.length - 1)
        }
      })
    )
  })

  test("a closed output (EPIPE) drops the waiting lines without throwing, and later lines are tried again", async () => {
    let closed = true
    const { sink, writes } = recorded((bytes) => {
      if (closed) throw Object.assign(new Error("closed"), { code: "EPIPE" })
      return bytes
    })
    sink.line("gone")
    await turn()
    expect(() => sink.line("also gone")).not.toThrow()
    await written(sink)
    closed = false
    sink.line("back")
    await written(sink)
    expect(writes()).toEqual(["back\n"])
  })

  test("a full pipe (EAGAIN) is tried again on a timer that backs off, not on every line and never in a spin", async () => {
    let attempts = 0
    const sink = makeSink((_data, done) => (attempts++, done(again(), 0)), { retryMs: 1 })
    // at least 300 ms, and on a loaded machine (late timers) until it has tried a few times
    const started = Date.now()
    let lines = 0
    while (Date.now() - started < 300 || (attempts <= 3 && Date.now() - started < 5_000)) {
      sink.line("waiting")
      lines++
      await turn()
    }
    const elapsed = Date.now() - started
    // 1, 2, 4, ... 64 ms apart: about ten tries in 300 ms, whatever the lines; a spin would try on every turn
    expect(attempts).toBeGreaterThan(3)
    expect(attempts).toBeLessThan(8 + elapsed / 64)
    expect(lines).toBeGreaterThan(attempts * 5)
  })

  test("while a write waits on a stopped reader, lines past the limit are dropped and counted; once it goes on, the rest follows and one warning says how many", async () => {
    const writes: Array<string> = []
    const held: Array<() => void> = []
    let counted = 0
    const sink = makeSink(
      (data, done) => {
        const text = Buffer.from(data).toString()
        held.push(() => (writes.push(text), done(null, data.byteLength)))
      },
      { limitBytes: 100, onDrop: () => counted++, onResume: (count) => sink.line(`dropped ${count}`) }
    )
    for (let i = 0; i < 10; i++) sink.line(`line ${i}`) // 10 x 7 bytes: all kept, one write started
    await turn()
    expect(held.length).toBe(1) // the reader stopped: it waits, and the caller goes on
    for (let i = 10; i < 30; i++) sink.line(`line ${i}`)
    await turn()
    expect(counted).toBeGreaterThan(0)
    expect(held.length).toBe(1) // one write at a time
    while (held.length > 0) {
      held.shift()!()
      await turn()
    }
    const lines = writes.join("").trimEnd().split("\n")
    // the warning's line is the logger's (Logger.test.ts); here, that it comes once, with the count
    const warnings = lines.filter((line) => line.includes("dropped"))
    expect(warnings).toEqual([`dropped ${counted}`])
    const kept = lines.filter((line) => line.startsWith("line "))
    expect(kept.length + counted).toBe(30)
    expect(kept.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`))
    sink.line("after")
    await turn()
    held.shift()!()
    expect(writes.at(-1)).toBe("after\n")
  })
})

const SRC = `${import.meta.dir}/../../src`

test("a process that logs and exits at once still writes every line", async () => {
  const script = [
    `import { Effect } from "effect"`,
    `import { AppConfig } from ${JSON.stringify(`${SRC}/Config.ts`)}`,
    `import { LoggerLive } from ${JSON.stringify(`${SRC}/Observability/Logger.ts`)}`,
    `const lines = Effect.forEach(Array.from({ length: 5000 }, (_, i) => i), (i) => Effect.logInfo(String(i)))`,
    `await Effect.runPromise(lines.pipe(Effect.provide(LoggerLive), Effect.provide(AppConfig.fromEnv({ API_KEYS: "k" }))))`,
    `process.exit(3)`
  ].join("\n")
  const proc = spawn([process.execPath, "-e", script], { stdout: "pipe", cwd: `${import.meta.dir}/../..` })
  const out = await new Response(proc.stdout).text()
  expect(await proc.exited).toBe(3)
  const lines = out.trimEnd().split("\n")
  expect(lines.length).toBe(5000)
  expect(JSON.parse(lines[4999]!).message).toBe("4999")
})

test("two processes sharing one pipe (as WORKERS do) never interleave within a line", async () => {
  const writer = (name: string) =>
    [
      `import { makeSink, writeTo } from ${JSON.stringify(`${SRC}/Observability/LogSink.ts`)}`,
      `const stdoutSink = makeSink(writeTo(1))`,
      `const pad = "x".repeat(300)`,
      // a turn's lines are more than the pipe holds (64 KiB), so a writer blocks while the other writes
      `for (let turn = 0; turn < 10; turn++) {`,
      `  for (let i = 0; i < 250; i++) stdoutSink.line(JSON.stringify({ w: "${name}", turn, i, pad }))`,
      `  await new Promise((resolve) => setImmediate(resolve))`,
      `}`
    ].join("\n")
  const both = `"$0" -e "$1" & "$0" -e "$2"; wait`
  const proc = spawn(["sh", "-c", both, process.execPath, writer("a"), writer("b")], { stdout: "pipe" })
  await Bun.sleep(300) // both writers wait on the full pipe
  const lines = (await new Response(proc.stdout).text()).trimEnd().split("\n")
  expect(await proc.exited).toBe(0)
  const parsed = lines.map((line) => JSON.parse(line) as { w: string })
  expect(parsed.filter((line) => line.w === "a").length).toBe(2500)
  expect(parsed.filter((line) => line.w === "b").length).toBe(2500)
})
