/** Standard output's line sink: the lines of one turn in one write, in order, nothing lost. */
import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { makeLineSink } from "../../src/Observability/LogSink.ts"

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
