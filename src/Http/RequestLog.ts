/**
 * The one log line of each request. With the JSON logger (the default) the edge prints it directly: the same line,
 * byte for byte in shape, that Effect's JSON logger prints, without the machinery between `Effect.logInfo` and
 * the console (two FiberRef writes for the annotations and one for the runtime flags, each copying the fiber's
 * map of FiberRefs, a HashMap built and walked, a cycle-checking JSON.stringify). That machinery measured 50-90 µs
 * of a 400 µs request under load. With any other logger setup (pretty, tests, a span to record the line in) the
 * line goes through `Effect.logInfo` as before, so LOG_LEVEL and LOG_FORMAT mean what they always meant.
 */
import {
  Console,
  Context,
  Effect,
  FiberId,
  FiberRef,
  HashMap,
  HashSet,
  Inspectable,
  Logger,
  LogLevel,
  Tracer
} from "effect"

/** Effect's JSON logger, as `Logger.json` installs it, kept as a value so a request can recognise it. */
export const JsonLogger = Logger.withConsoleLog(Logger.jsonLogger)

/** `Logger.json`, with the logger above. */
export const JsonLoggerLive = Logger.replace(Logger.defaultLogger, JsonLogger)

export type RequestFields = Readonly<Record<string, string | number>>

let knownLoggers: HashSet.HashSet<Logger.Logger<unknown, unknown>> | undefined
let knownJsonOnly = false

/** The loggers print nothing but the JSON line: the JSON logger, and the tracer's, which is idle without a span. */
const jsonOnly = (loggers: HashSet.HashSet<Logger.Logger<unknown, unknown>>): boolean => {
  if (loggers !== knownLoggers) {
    knownLoggers = loggers
    knownJsonOnly =
      HashSet.has(loggers, JsonLogger) &&
      HashSet.every(loggers, (logger) => logger === JsonLogger || logger === Logger.tracerLogger)
  }
  return knownJsonOnly
}

/** As Effect's structured logger renders an annotation's value. */
const structured = (value: unknown): unknown =>
  typeof value === "bigint" || typeof value === "function" || typeof value === "symbol"
    ? String(value)
    : Inspectable.toJSON(value)

const line = (
  fiber: { getFiberRef: <A>(ref: FiberRef.FiberRef<A>) => A; id: () => FiberId.Runtime },
  fields: RequestFields
): string => {
  const date = new Date()
  const inherited = fiber.getFiberRef(FiberRef.currentLogAnnotations)
  let annotations: Record<string, unknown> = fields
  if (HashMap.size(inherited) > 0) {
    annotations = {}
    for (const [key, value] of inherited) annotations[key] = structured(value)
    Object.assign(annotations, fields)
  }
  const spans: Record<string, number> = {}
  for (const span of fiber.getFiberRef(FiberRef.currentLogSpan)) spans[span.label] = date.getTime() - span.startTime
  return JSON.stringify({
    message: "request",
    logLevel: "INFO",
    timestamp: date.toISOString(),
    annotations,
    spans,
    // FiberId.threadName, which builds a HashSet of the ids to print the one a running fiber has
    fiberId: `#${fiber.id().id}`
  })
}

/** Logs the request line at Info with `fields` as its annotations. */
export const logRequest = (fields: RequestFields): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    if (
      !jsonOnly(fiber.getFiberRef(FiberRef.currentLoggers)) ||
      Context.getOption(fiber.currentContext, Tracer.ParentSpan)._tag === "Some"
    ) {
      return Effect.logInfo("request").pipe(Effect.annotateLogs(fields))
    }
    if (LogLevel.greaterThan(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Info)) return Effect.void
    Context.get(fiber.currentDefaultServices, Console.Console).unsafe.log(line(fiber, fields))
    return Effect.void
  })
