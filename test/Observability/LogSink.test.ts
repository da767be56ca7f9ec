/** Standard output's line sink: the lines of one turn in one write, in order, nothing lost. */
import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { makeLineSink, PIPE_BUF } from "../../src/Observability/LogSink.ts"

const turn = () => new Promise((resolve) => setImmediate(resolve))

/** A sink whose writes are recorded; `accept(text)` says how many bytes each write takes (or throws). */
const recorded = (accept: (bytes: number) => number = (bytes) => bytes) => {
  const chunks: Array<Buffer> = []
  const sink = makeLineSink(1, (_fd, data) => {
    const bytes = Buffer.from(data)
    const taken = accept(bytes.byteLength)
    chunks.push(bytes.subarray(0, taken))
    return taken
  })
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

  test("flush writes what waits at once (as at exit), and nothing twice", async () => {
    const { sink, writes } = recorded()
    sink.line("last words")
    sink.flush()
    expect(writes()).toEqual(["last words\n"])
    await turn()
    expect(writes()).toEqual(["last words\n"])
  })

  test("partial writes and a full pipe (EAGAIN) lose nothing, in bytes, multi-byte characters included", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { maxLength: 20 }),
        fc.nat(),
        (lines, seed) => {
          let n = seed
          const { sink, chunks } = recorded((bytes) => {
            n = (n * 1103515245 + 12345) % 2147483648
            if (n % 5 === 0) throw Object.assign(new Error("again"), { code: "EAGAIN" })
            return Math.min(bytes, 1 + (n % 7))
          })
          for (const line of lines) sink.line(line)
          sink.flush()
          expect(Buffer.concat(chunks).toString()).toBe(lines.map((l) => `${l}\n`).join(""))
        }
      )
    )
  })

  test("each write holds whole lines, at most PIPE_BUF bytes of them unless one line is longer alone", () => {
    // lengths up to 3,000 units of 1 to 4 bytes: some lines alone are over PIPE_BUF, many together are
    const line = fc
      .tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom("a", "\u00e9", "\u{1F600}", '"'), fc.string())
      .map(([n, unit, tail]) => unit.repeat(n) + tail)
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const { sink, chunks } = recorded()
        for (const text of lines) sink.line(text)
        sink.flush()
        expect(Buffer.concat(chunks).toString()).toBe(lines.map((l) => `${l}\n`).join(""))
        for (const chunk of chunks) {
          const text = chunk.toString()
          expect(text.endsWith("\n")).toBe(true)
          if (chunk.byteLength > PIPE_BUF) expect(text.indexOf("\n")).toBe(text.length - 1)
        }
      })
    )
  })

  test("a closed output (EPIPE) drops the waiting lines without throwing", () => {
    const { sink } = recorded(() => {
      throw Object.assign(new Error("closed"), { code: "EPIPE" })
    })
    sink.line("gone")
    expect(() => sink.flush()).not.toThrow()
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
