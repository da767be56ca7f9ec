/** The JSON logger: Effect's `consoleJson` line shape, written with one plain JSON.stringify. */
import { describe, expect, test } from "bun:test"
import { Console, Effect, Layer, Logger } from "effect"
import { jsonLogger } from "../../src/Observability/Logger.ts"

const printed = (effect: Effect.Effect<void>) => {
  const lines: Array<string> = []
  const capture = Layer.succeed(Console.Console, { ...console, log: (line: unknown) => void lines.push(String(line)) })
  Effect.runSync(effect.pipe(Effect.provide(Layer.merge(Logger.layer([jsonLogger]), capture))))
  return lines.map((line) => JSON.parse(line))
}

describe("the JSON logger", () => {
  test("writes message, level, timestamp, annotations, spans and fiber id, one object a line", () => {
    const [line] = printed(
      Effect.logInfo("request").pipe(Effect.annotateLogs({ status: 200, path: "/x" }), Effect.withLogSpan("outer"))
    )
    expect(line.message).toBe("request")
    expect(line.level).toBe("INFO")
    expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp)
    expect(line.annotations).toEqual({ status: 200, path: "/x" })
    expect(Object.keys(line.spans)).toEqual(["outer"])
    expect(line.fiberId).toMatch(/^#\d+$/)
    expect(line.cause).toBeUndefined()
  })

  test("a cause is rendered; values JSON cannot hold become strings, a cycle does not lose the line", () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const [failed, odd, loop] = printed(
      Effect.all([
        Effect.logError("Unhandled defect", new Error("boom")).pipe(Effect.andThen(Effect.void)),
        Effect.logInfo("odd").pipe(Effect.annotateLogs({ big: 10n })),
        Effect.logInfo("loop").pipe(Effect.annotateLogs({ cyclic }))
      ]).pipe(Effect.asVoid)
    )
    expect(failed.level).toBe("ERROR")
    expect(JSON.stringify(failed)).toContain("boom")
    expect(odd.annotations).toEqual({ big: "10" })
    expect(loop.message).toBe("loop")
    expect(loop.annotations).toBe("unprintable")
  })
})
