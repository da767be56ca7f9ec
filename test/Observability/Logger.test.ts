/** The JSON logger: Effect's `consoleJson` line shape, written with one plain JSON.stringify. */
import { describe, expect, test } from "bun:test"
import { Console, Effect, Layer, Logger, LogLevel, References } from "effect"
import * as fc from "fast-check"
import { isoTime, jsonLogger, logInfoNow } from "../../src/Observability/Logger.ts"

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

describe("logInfoNow (the request line, written without building an Effect)", () => {
  const now = (annotations: Record<string, unknown>) =>
    Effect.withFiber((fiber) => logInfoNow(fiber, "request", annotations))

  test("writes what Effect.logInfo with annotateLogs writes, the outer annotations and log spans kept", () => {
    const fields = { method: "POST", status: 200, durationMs: 1.25 }
    const outer = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.annotateLogs({ worker: 1, status: "outer" }), Effect.withLogSpan("span"))
    const [viaEffect, viaNow] = printed(
      Effect.all([outer(Effect.logInfo("request").pipe(Effect.annotateLogs(fields))), outer(now(fields))]).pipe(
        Effect.asVoid
      )
    )
    const comparable = ({ timestamp: _t, fiberId: _f, spans, ...rest }: Record<string, any>) => ({
      ...rest,
      spans: Object.keys(spans)
    })
    expect(comparable(viaNow)).toEqual(comparable(viaEffect))
    expect(viaNow.annotations).toEqual({ worker: 1, status: 200, method: "POST", durationMs: 1.25 })
  })

  test("at every minimum level it writes a line exactly when Effect.logInfo does", () => {
    for (const level of LogLevel.values) {
      const atLevel = (effect: Effect.Effect<void>) =>
        printed(effect.pipe(Effect.provideService(References.MinimumLogLevel, level))).length
      expect([level, atLevel(now({ status: 200 }))]).toEqual([level, atLevel(Effect.logInfo("request"))])
    }
  })

  test("any plain annotations give the line Effect.logInfo with annotateLogs gives", () => {
    const plain = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null))
    fc.assert(
      fc.property(fc.dictionary(fc.string(), plain), (fields) => {
        const [viaEffect, viaNow] = printed(
          Effect.all([Effect.logInfo("request").pipe(Effect.annotateLogs(fields)), now(fields)]).pipe(Effect.asVoid)
        )
        expect(viaNow.annotations).toEqual(viaEffect.annotations)
        expect(Object.keys(viaNow.annotations)).toEqual(Object.keys(viaEffect.annotations))
      })
    )
  })

  test("beside another logger, each gets the line and its annotations; the fiber's are as before", () => {
    const seen: Array<unknown> = []
    const recorder = Logger.make(({ fiber, message }) =>
      seen.push([message, fiber.getRef(References.CurrentLogAnnotations)])
    )
    const lines: Array<string> = []
    const capture = Layer.succeed(Console.Console, {
      ...console,
      log: (line: unknown) => void lines.push(String(line))
    })
    Effect.runSync(
      Effect.andThen(now({ status: 200 }), Effect.logInfo("next")).pipe(
        Effect.provide(Layer.merge(Logger.layer([jsonLogger, recorder]), capture))
      )
    )
    expect(lines.map((line) => JSON.parse(line).annotations)).toEqual([{ status: 200 }, {}])
    expect(seen).toEqual([
      [["request"], { status: 200 }],
      [["next"], {}]
    ])
  })

  test("below the minimum level it writes nothing, and the fiber's annotations are as before", () => {
    const lines = printed(now({ status: 200 }).pipe(Effect.provideService(References.MinimumLogLevel, "Warn")))
    expect(lines).toEqual([])
    const [request, next] = printed(Effect.andThen(now({ status: 200 }), Effect.logInfo("next")))
    expect(request.annotations).toEqual({ status: 200 })
    expect(next.annotations).toEqual({})
  })
})

test("the timestamp, reused within a millisecond, is always the line's own date", () => {
  const instant = fc.integer({ min: 0, max: 4_102_444_800_000 })
  fc.assert(
    fc.property(fc.array(fc.oneof(instant, fc.constantFrom(1_700_000_000_000, 1_700_000_000_001))), (times) => {
      for (const ms of times) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString())
    })
  )
})
