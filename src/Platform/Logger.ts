/**
 * LOG_LEVEL and LOG_FORMAT as Effect's loggers: one JSON object a line on stdout, or pretty lines for people.
 * The JSON logger writes the shape of Effect's `Logger.consoleJson` (message, level, timestamp, cause, annotations,
 * spans, fiberId) with one plain `JSON.stringify`: the generic formatter's cycle-safe, redacting walk took a fifth
 * of a request's CPU for a line whose values are strings and numbers (bench/README.md).
 */
import { Cause, Layer, Logger, References } from "effect"
import type { LogLevel } from "effect"
import { AppConfig } from "../Config.ts"

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

const stringify = (entry: unknown): string => {
  try {
    return JSON.stringify(entry, replacer)
  } catch {
    // a value JSON cannot hold (a cycle): the line still says what happened
    return JSON.stringify({ ...(entry as object), annotations: "unprintable" })
  }
}

const formatJson = Logger.make<unknown, string>(({ cause, date, fiber, logLevel, message }) => {
  const spans: Record<string, number> = {}
  const now = date.getTime()
  for (const [label, start] of fiber.getRef(References.CurrentLogSpans)) spans[label] = now - start
  const messages = Array.isArray(message) ? message : [message]
  return stringify({
    message: messages.length === 1 ? messages[0] : messages,
    level: logLevel.toUpperCase(),
    timestamp: date.toISOString(),
    cause: cause.reasons.length > 0 ? Cause.pretty(cause) : undefined,
    annotations: fiber.getRef(References.CurrentLogAnnotations),
    spans,
    fiberId: `#${fiber.id}`
  })
})

/** The JSON lines through the fiber's `Console`, as Effect's own console loggers write. */
export const jsonLogger = Logger.withConsoleLog(formatJson)

export const LoggerLive = Layer.unwrap(
  AppConfig.useSync(({ logFormat, logLevel }) =>
    Layer.mergeAll(
      Logger.layer([logFormat === "json" ? jsonLogger : Logger.consolePretty()]),
      Layer.succeed(References.MinimumLogLevel, LEVELS[logLevel])
    )
  )
)
