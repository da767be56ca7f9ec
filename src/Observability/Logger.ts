// LOG_LEVEL and LOG_FORMAT as Effect's loggers, through a Console on LogSink.ts, which never waits for its reader.
// jsonLogger is kept beside `Logger.consoleJson`: it formats a request line in a quarter of the CPU (logline.ts).
import { format } from "node:util"
import { Console, Context, Effect, Layer, Logger, type LogLevel, Metric, References } from "effect"
import { AppConfig } from "../Config.ts"
import { makeSink, type Write, writeTo } from "./LogSink.ts"

const LEVELS: Record<AppConfig["Service"]["logLevel"], LogLevel.LogLevel> = {
  debug: "Debug",
  info: "Info",
  warning: "Warn",
  error: "Error",
  none: "None"
}

const isPlain = (value: unknown): boolean =>
  value === null || (typeof value !== "object" && typeof value !== "bigint" && typeof value !== "function")

/**
 * `Logger.consoleJson`'s line for one record with these annotations, written by one JSON.stringify; undefined where a
 * value is not plain (a cause, an object), which the generic formatter's redacting, cycle-safe walk is for.
 */
export const plainJsonLine = (
  options: Logger.Options<unknown>,
  annotations: Readonly<Record<string, unknown>>
): string | undefined => {
  const { cause, date, fiber, logLevel, message } = options
  const messages: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
  let plain = cause.reasons.length === 0 && messages.every(isPlain)
  for (const key in annotations) plain &&= isPlain(annotations[key])
  if (!plain) return undefined
  const spans: Record<string, number> = {}
  for (const [label, start] of fiber.getRef(References.CurrentLogSpans)) spans[label] = date.getTime() - start
  return JSON.stringify({
    message: messages.length === 1 ? messages[0] : messages,
    level: logLevel.toUpperCase(),
    timestamp: date.toISOString(),
    annotations,
    spans,
    fiberId: `#${fiber.id}`
  })
}

export const jsonLogger = Logger.withConsoleLog(
  Logger.make(
    (options) =>
      plainJsonLine(options, options.fiber.getRef(References.CurrentLogAnnotations)) ?? Logger.formatJson.log(options)
  )
)

// The loggers' Console, its lines to `write`: dropped ones told in one warning; on close it waits 2 s at most for all.
export const consoleLayer = (write: Write) =>
  Layer.effect(
    Console.Console,
    Effect.gen(function* () {
      const context = yield* Effect.context<never>()
      const registry = Context.make(Metric.MetricRegistry, yield* Metric.MetricRegistry)
      const droppedTotal = Metric.counter("log_lines_dropped_total", {
        description: "Log lines dropped because standard output was not being read fast enough",
        incremental: true
      })
      droppedTotal.updateUnsafe(0, registry)
      const warn = (count: number) =>
        Effect.logWarning(
          `${count} log line${count === 1 ? " was" : "s were"} dropped: standard output was not being read fast enough`
        ).pipe(
          Effect.annotateLogs("linesDropped", count),
          Effect.provideContext(Context.add(context, Console.Console, sinkConsole)),
          Effect.runSync
        )
      const sink = makeSink(write, { onDrop: () => droppedTotal.updateUnsafe(1, registry), onResume: warn })
      // the loggers pass one string, which `format` would return as it is
      const log = (...args: ReadonlyArray<unknown>) =>
        sink.line(args.length === 1 && typeof args[0] === "string" ? args[0] : format(...args))
      // the process's console with `log` replaced, on it as prototype: copying it (`{ ...console }`) took 0.7 ms
      const sinkConsole: Console.Console = Object.assign(Object.create(console), { log })
      yield* Effect.addFinalizer(() =>
        Effect.callback<void>((resume) => sink.whenWritten(() => resume(Effect.void))).pipe(
          Effect.timeoutOption("2 seconds")
        )
      )
      return sinkConsole
    })
  )

// Standard output is looked at (a pipe, a file, a terminal) when the layer is built, not when this is imported.
export const LoggerLive = Layer.unwrap(
  AppConfig.useSync(({ logFormat, logLevel }) =>
    Layer.unwrap(Effect.sync(() => consoleLayer(writeTo(1)))).pipe(
      Layer.provideMerge(
        Layer.merge(
          Logger.layer([logFormat === "json" ? jsonLogger : Logger.consoleLogFmt]),
          Layer.succeed(References.MinimumLogLevel, LEVELS[logLevel])
        )
      )
    )
  )
)
