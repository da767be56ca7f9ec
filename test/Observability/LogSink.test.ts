/** Standard output's line sink: the lines of one turn in one write, in order, never holding the caller back. */
import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { makeLineSink, PIPE_BUF } from "../../src/Observability/LogSink.ts"

const turn = () => new Promise((resolve) => setImmediate(resolve))
const again = () => Object.assign(new Error("again"), { code: "EAGAIN" })

/**
 * A sink whose writes are recorded; `accept(bytes)` says how many bytes each write takes (or throws), and the write
 * calls back at once, as a reader that keeps up would.
 */
const recorded = (accept: (bytes: number) => number = (bytes) => bytes, options = {}) => {
  const chunks: Array<Buffer> = []
  const take = (data: Uint8Array) => {
    const bytes = Buffer.from(data)
    const taken = accept(bytes.byteLength)
    chunks.push(bytes.subarray(0, taken))
    return taken
  }
  const sink = makeLineSink(
    1,
    {
      write: (_fd, data, done) => {
        let taken: number
        try {
          taken = take(data)
        } catch (error) {
          return done(error, 0)
        }
        done(null, taken)
      },
      writeSync: (_fd, data) => take(data)
    },
    { retryMs: 0, ...options }
  )
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

  test("flushSync writes what waits at once (as at exit), and nothing twice", async () => {
    const { sink, writes } = recorded()
    sink.line("last words")
    sink.flushSync()
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
        if (atExit) sink.flushSync()
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

  test("a closed output (EPIPE) drops the waiting lines without throwing", async () => {
    const { sink } = recorded(() => {
      throw Object.assign(new Error("closed"), { code: "EPIPE" })
    })
    sink.line("gone")
    await turn()
    expect(() => sink.flushSync()).not.toThrow()
  })

  test("a full pipe (EAGAIN) is tried again on a timer that backs off, not on every line and never in a spin", async () => {
    let attempts = 0
    const sink = makeLineSink(
      1,
      {
        write: (_fd, _data, done) => (attempts++, done(again(), 0)),
        writeSync: () => 0
      },
      { retryMs: 1 }
    )
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
    const sink = makeLineSink(
      1,
      {
        write: (_fd, data, done) => {
          const text = Buffer.from(data).toString()
          held.push(() => (writes.push(text), done(null, data.byteLength)))
        },
        writeSync: () => 0
      },
      { limitBytes: 100, onDrop: () => counted++ }
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
    const warnings = lines.filter((line) => line.includes("dropped"))
    expect(warnings.length).toBe(1)
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: "WARN", annotations: { linesDropped: counted } })
    const kept = lines.filter((line) => line.startsWith("line "))
    expect(kept.length + counted).toBe(30)
    expect(kept.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`))
    sink.line("after")
    await turn()
    held.shift()!()
    expect(writes.at(-1)).toBe("after\n")
  })
})

test("a process that logs and exits at once still writes every line", async () => {
  const script = [
    `import { stdoutSink } from ${JSON.stringify(`${import.meta.dir}/../../src/Observability/LogSink.ts`)}`,
    `for (let i = 0; i < 5000; i++) stdoutSink.line(JSON.stringify({ i }))`,
    `process.exit(3)`
  ].join("\n")
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe" })
  const out = await new Response(proc.stdout).text()
  expect(await proc.exited).toBe(3)
  const lines = out.trimEnd().split("\n")
  expect(lines.length).toBe(5000)
  expect(JSON.parse(lines[4999]!)).toEqual({ i: 4999 })
})

test("two processes sharing one pipe (as WORKERS do) never interleave within a line", async () => {
  const writer = (name: string) =>
    [
      `import { stdoutSink } from ${JSON.stringify(`${import.meta.dir}/../../src/Observability/LogSink.ts`)}`,
      `const pad = "x".repeat(300)`,
      // a turn's lines are more than the pipe holds (64 KiB), so a writer blocks while the other writes
      `for (let turn = 0; turn < 10; turn++) {`,
      `  for (let i = 0; i < 250; i++) stdoutSink.line(JSON.stringify({ w: "${name}", turn, i, pad }))`,
      `  await new Promise((resolve) => setImmediate(resolve))`,
      `}`
    ].join("\n")
  const both = `"$0" -e "$1" & "$0" -e "$2"; wait`
  const proc = Bun.spawn(["sh", "-c", both, process.execPath, writer("a"), writer("b")], { stdout: "pipe" })
  await Bun.sleep(300) // both writers wait on the full pipe
  const lines = (await new Response(proc.stdout).text()).trimEnd().split("\n")
  expect(await proc.exited).toBe(0)
  const parsed = lines.map((line) => JSON.parse(line) as { w: string })
  expect(parsed.filter((line) => line.w === "a").length).toBe(2500)
  expect(parsed.filter((line) => line.w === "b").length).toBe(2500)
})
