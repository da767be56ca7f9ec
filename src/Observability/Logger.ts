/**
 * LOG_LEVEL and LOG_FORMAT as Effect's loggers: one JSON object a line on stdout, or pretty lines for people.
 * The JSON logger writes the shape of Effect's `Logger.consoleJson` (message, level, timestamp, cause, annotations,
 * spans, fiberId) with one plain `JSON.stringify`: the generic formatter's cycle-safe, redacting walk took a fifth
 * of a request's CPU for a line whose values are strings and numbers (bench/README.md).
 */
import { format } from "node:util"
import { Cause, Clock, Console, Effect, type Fiber, Layer, Logger, LogLevel, References } from "effect"
import { AppConfig } from "../Config.ts"
import { stdoutSink } from "./LogSink.ts"

const LEVELS: Record<AppConfig["Service"]["logLevel"], LogLevel.LogLevel> = {
  debug: "Debug",
  info: "Info",
  warning: "Warn",
  error: "Error",
  none: "None"
}

/** Values JSON cannot hold as they are, as Effect's structured logger renders them. */
const replacer = (_key: string, value: unknown): unknown => {
  if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function") return String(value)
  if (value instanceof Error) return { name: value.name, message: value.message }
  return value
}

const isPlain = (value: unknown): boolean => {
  const type = typeof value
  return type === "string" || type === "number" || type === "boolean" || value === null || value === undefined
}

/** True when JSON renders every value as it is, so the line needs no replacer (the request line: strings, numbers). */
const allPlain = (messages: ReadonlyArray<unknown>, annotations: Readonly<Record<string, unknown>>): boolean => {
  for (const message of messages) if (!isPlain(message)) return false
  for (const key in annotations) if (!isPlain(annotations[key])) return false
  return true
}

const stringify = (entry: unknown, plain: boolean): string => {
  try {
    // a replacer is called for every key of the line: only worth it where a value needs one
    return plain ? JSON.stringify(entry) : JSON.stringify(entry, replacer)
  } catch {
    // a value JSON cannot hold (a cycle): the line still says what happened
    return JSON.stringify({ ...(entry as object), annotations: "unprintable" })
  }
}

/** The same millisecond's timestamp text again: at thousands of lines a second most lines share it with the last. */
export const isoTime = (() => {
  let last = Number.NaN
  let text = ""
  return (date: Date): string => {
    const ms = date.getTime()
    if (ms !== last) {
      last = ms
      text = date.toISOString()
    }
    return text
  }
})()

/** One line in the shape of Effect's `Logger.consoleJson`, with the annotations given. */
const jsonLine = (
  fiber: Fiber.Fiber<unknown, unknown>,
  date: Date,
  logLevel: LogLevel.LogLevel,
  message: unknown,
  cause: Cause.Cause<unknown>,
  annotations: Readonly<Record<string, unknown>>
): string => {
  const spans: Record<string, number> = {}
  const open = fiber.getRef(References.CurrentLogSpans)
  if (open.length > 0) for (const [label, start] of open) spans[label] = date.getTime() - start
  const messages: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
  const entry = {
    message: messages.length === 1 ? messages[0] : messages,
    level: logLevel.toUpperCase(),
    timestamp: isoTime(date),
    cause: cause.reasons.length > 0 ? Cause.pretty(cause) : undefined,
    annotations,
    spans,
    fiberId: `#${fiber.id}`
  }
  return stringify(entry, allPlain(messages, annotations))
}

const formatJson = Logger.make<unknown, string>(({ cause, date, fiber, logLevel, message }) =>
  jsonLine(fiber, date, logLevel, message, cause, fiber.getRef(References.CurrentLogAnnotations))
)

/** The JSON lines through the fiber's `Console`, as Effect's own console loggers write. */
export const jsonLogger = Logger.withConsoleLog(formatJson)

/** A value of the pretty line: plain words as they are, anything else as JSON. */
const prettyValue = (value: unknown): string => {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)
  if (isPlain(value)) return String(value)
  return stringify(value, false)
}

const time = (date: Date) =>
  `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}:` +
  `${String(date.getSeconds()).padStart(2, "0")}.${String(date.getMilliseconds()).padStart(3, "0")}`

/**
 * LOG_FORMAT=pretty: one line a record, `[time] LEVEL (#fiber): message key=value ...` (Effect's pretty logger
 * writes a line for each annotation: six or seven a request). A cause follows on its own lines.
 */
export const prettyLogger = Logger.withConsoleLog(
  Logger.make<unknown, string>(({ cause, date, fiber, logLevel, message }) => {
    const messages: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
    let text = `[${time(date)}] ${logLevel.toUpperCase()} (#${fiber.id}):`
    for (const part of messages) text += ` ${typeof part === "string" ? part : prettyValue(part)}`
    const annotations = fiber.getRef(References.CurrentLogAnnotations)
    for (const key in annotations) text += ` ${key}=${prettyValue(annotations[key])}`
    return cause.reasons.length > 0 ? `${text}\n${Cause.pretty(cause)}` : text
  })
)

/**
 * The console the loggers write through: every line goes to standard output's sink (LogSink.ts), with the other
 * lines of its turn, in order.
 */
const console_: Console.Console = {
  ...console,
  log: (...args: ReadonlyArray<unknown>) =>
    stdoutSink.line(args.length === 1 && typeof args[0] === "string" ? args[0] : format(...args))
}

export const LoggerLive = Layer.unwrap(
  AppConfig.useSync(({ logFormat, logLevel }) =>
    Layer.mergeAll(
      Logger.layer([logFormat === "json" ? jsonLogger : prettyLogger]),
      Layer.succeed(Console.Console, console_),
      Layer.succeed(References.MinimumLogLevel, LEVELS[logLevel])
    )
  )
)

/**
 * The minimums above Info, from Effect's own order, read once. On the request path a set lookup: in its place,
 * `LogLevel.isGreaterThan` measured 7-9 MB more peak RSS under load (bench/README.md, issue 22).
 */
const ABOVE_INFO: ReadonlySet<LogLevel.LogLevel> = new Set(
  LogLevel.values.filter((level) => LogLevel.isGreaterThan(level, "Info"))
)

/**
 * `Effect.logInfo(message).pipe(Effect.annotateLogs(annotations))`, the request line. With the JSON logger alone, as
 * deployed, the line is written now, made with the annotations in hand: the Effects and context frames of those two
 * cost more than the line on every request. Any other logger (pretty, OTLP) gets it through `Effect.logInfo`.
 */
export const logInfoNow = (
  fiber: Fiber.Fiber<unknown, unknown>,
  message: string,
  annotations: Readonly<Record<string, unknown>>
): Effect.Effect<void> => {
  if (ABOVE_INFO.has(fiber.getRef(References.MinimumLogLevel))) return Effect.void
  const loggers = fiber.getRef(References.CurrentLoggers)
  if (loggers.size === 0) return Effect.void
  if (loggers.size !== 1 || !loggers.has(jsonLogger)) return Effect.annotateLogs(Effect.logInfo(message), annotations)
  const outer = fiber.getRef(References.CurrentLogAnnotations)
  let merged = annotations
  for (const _ in outer) {
    merged = { ...outer, ...annotations }
    break
  }
  const date = new Date(fiber.getRef(Clock.Clock).currentTimeMillisUnsafe())
  fiber.getRef(Console.Console).log(jsonLine(fiber, date, "Info", message, Cause.empty, merged))
  return Effect.void
}
