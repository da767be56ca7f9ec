/** The loggers of LOG_FORMAT and LOG_LEVEL: Effect's JSON line, one object a line, and the levels that pass. */
import { describe, expect, test } from "bun:test"
import { Console, Context, Effect, Layer, Logger, Metric } from "effect"
import * as fc from "fast-check"
import { AppConfig } from "../../src/Config.ts"
import { consoleLayer, jsonLogger, LoggerLive } from "../../src/Observability/Logger.ts"
import type { Write } from "../../src/Observability/LogSink.ts"

const capture = (lines: Array<string>) =>
  Layer.succeed(Console.Console, { ...console, log: (line: unknown) => void lines.push(String(line)) })

const printed = (effect: Effect.Effect<void>, loggers: ReadonlyArray<Logger.Logger<unknown, void>> = [jsonLogger]) => {
  const lines: Array<string> = []
  Effect.runSync(effect.pipe(Effect.provide(Layer.merge(Logger.layer(loggers), capture(lines)))))
  return lines
}

const parsed = (effect: Effect.Effect<void>) => printed(effect).map((line) => JSON.parse(line))

describe("the JSON logger", () => {
  test("writes message, level, timestamp, annotations, spans and fiber id, one object a line", () => {
    const [line] = parsed(
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
    const [failed, odd, loop] = parsed(
      Effect.all([
        Effect.logError("Unhandled defect", new Error("boom")).pipe(Effect.andThen(Effect.void)),
        Effect.logInfo("odd").pipe(Effect.annotateLogs({ big: 10n })),
        Effect.logInfo("loop").pipe(Effect.annotateLogs({ cyclic }))
      ]).pipe(Effect.asVoid)
    )
    expect(failed.level).toBe("ERROR")
    expect(JSON.stringify(failed)).toContain("boom")
    expect(odd.annotations).toEqual({ big: "10n" })
    expect(loop.message).toBe("loop")
    expect(loop.annotations).toEqual({ cyclic: {} })
  })

  test("any message, annotations, outer ones and log spans give the very line of Effect's Logger.consoleJson", () => {
    const value = fc.oneof(
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.bigInt(),
      fc.object()
    )
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 3 }),
        fc.dictionary(fc.string(), value),
        fc.dictionary(fc.string(), value),
        (message, outer, fields) => {
          const [ours, effects, ...rest] = printed(
            Effect.annotateLogs(Effect.logInfo(...message), fields).pipe(
              Effect.annotateLogs(outer),
              Effect.withLogSpan("span")
            ),
            [jsonLogger, Logger.consoleJson]
          )
          expect(rest).toEqual([])
          expect(ours).toBe(effects!)
        }
      )
    )
  })
})

describe("LOG_LEVEL", () => {
  test("each level writes the lines at it and above, none writes nothing", () => {
    const levels = ["debug", "info", "warning", "error", "none"] as const
    for (const level of levels) {
      const lines: Array<string> = []
      const logger = Layer.merge(LoggerLive, capture(lines)).pipe(
        Layer.provide(AppConfig.fromEnv({ LOG_LEVEL: level, API_KEYS: "k" }))
      )
      Effect.runSync(
        Effect.all([
          Effect.logDebug("debug"),
          Effect.logInfo("info"),
          Effect.logWarning("warning"),
          Effect.logError("error")
        ]).pipe(Effect.provide(logger))
      )
      const written = lines.map((line) => JSON.parse(line).message)
      expect([level, written]).toEqual([level, levels.slice(levels.indexOf(level), 4)])
    }
  })
})

test("lines dropped while standard output is stopped are counted, and one warning through the logger says how many", async () => {
  const written: Array<string> = []
  const held: Array<() => void> = []
  const write: Write = (data, done) => {
    held.push(() => (written.push(Buffer.from(data).toString()), done(null, data.byteLength)))
  }
  // counted in a registry of this test's own, registered (at 0) when the console is built
  const registry: Metric.MetricRegistry = new Map()
  const droppedTotal = () =>
    Metric.snapshotUnsafe(Context.make(Metric.MetricRegistry, registry)).find(
      (metric) => metric.id === "log_lines_dropped_total"
    )?.state
  const pad = "x".repeat(400)
  await Effect.runPromise(
    Effect.gen(function* () {
      // about 1.2 MiB of lines while the first write waits: past the 1 MiB the sink holds
      for (let i = 0; i < 3000; i++) yield* Effect.logInfo(pad).pipe(Effect.annotateLogs("i", i))
      yield* Effect.yieldNow
      while (held.length > 0) {
        held.shift()!()
        yield* Effect.yieldNow
      }
    }).pipe(
      Effect.provide(consoleLayer(write).pipe(Layer.provideMerge(Logger.layer([jsonLogger])))),
      Effect.provideService(Metric.MetricRegistry, registry)
    )
  )
  const lines = written
    .join("")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line))
  const warnings = lines.filter((line) => line.level === "WARN")
  const dropped = (droppedTotal() as Metric.CounterState<number>).count
  expect(dropped).toBeGreaterThan(0)
  expect(warnings.length).toBe(1)
  expect(warnings[0].annotations).toEqual({ linesDropped: dropped })
  expect(warnings[0].message).toBe(`${dropped} log lines were dropped: standard output was not being read fast enough`)
  expect(lines.length).toBe(3000 - dropped + 1)
})
