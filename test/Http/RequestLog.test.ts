import { describe, expect, test } from "bun:test"
import { Console, Effect, Layer, Logger, LogLevel } from "effect"
import { JsonLoggerLive, logRequest } from "../../src/Http/RequestLog.ts"

const fields = { method: "POST", path: "/v1/tools/wage-estimator", status: 200, durationMs: 1.25, requestId: "r-1" }

/** Runs `effect` with `logger` and a console that keeps what it is given, and returns the lines. */
const printed = (effect: Effect.Effect<void>, logger: Layer.Layer<never>) => {
  const lines: Array<string> = []
  const console = { ...globalThis.console, log: (line: string) => void lines.push(line) }
  const capture: Console.Console = { ...Effect.runSync(Effect.console), unsafe: console }
  Effect.runSync(effect.pipe(Effect.withConsole(capture), Effect.provide(logger)))
  return lines
}

/** The line without what differs from one run to the next. */
const stable = (line: string) => {
  const { fiberId, timestamp, ...rest } = JSON.parse(line)
  expect(fiberId).toMatch(/^#\d+$/)
  expect(new Date(timestamp).toISOString()).toBe(timestamp)
  return rest
}

describe("the request log line", () => {
  test("with the JSON logger, is the line Effect.logInfo prints, from the edge directly", () => {
    const [direct] = printed(logRequest(fields), JsonLoggerLive)
    const [logged] = printed(Effect.logInfo("request").pipe(Effect.annotateLogs(fields)), Logger.json)
    expect(stable(direct!)).toEqual(stable(logged!))
    expect(stable(direct!)).toEqual({ message: "request", logLevel: "INFO", annotations: fields, spans: {} })
  })

  test("keeps annotations and log spans set around it", () => {
    const around = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.annotateLogs({ worker: 2, big: 10n }), Effect.withLogSpan("outer"))
    const [direct] = printed(around(logRequest(fields)), JsonLoggerLive)
    const [logged] = printed(around(Effect.logInfo("request").pipe(Effect.annotateLogs(fields))), Logger.json)
    const { spans: directSpans, ...directRest } = stable(direct!)
    const { spans: loggedSpans, ...loggedRest } = stable(logged!)
    expect(directRest).toEqual(loggedRest)
    expect(directRest.annotations).toEqual({ worker: 2, big: "10", ...fields })
    expect(Object.keys(directSpans)).toEqual(Object.keys(loggedSpans))
  })

  test("respects the minimum level and other loggers", () => {
    expect(printed(logRequest(fields), Layer.merge(JsonLoggerLive, Logger.minimumLogLevel(LogLevel.Warning)))).toEqual(
      []
    )
    const [pretty] = printed(logRequest(fields), Logger.logFmt)
    expect(pretty).toContain("message=request")
    expect(pretty).toContain("requestId=r-1")
  })
})
