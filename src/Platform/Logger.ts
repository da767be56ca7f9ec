/** LOG_LEVEL and LOG_FORMAT as Effect's loggers: one JSON object a line on stdout, or pretty lines for people. */
import { Layer, Logger, References } from "effect"
import type { LogLevel } from "effect"
import { AppConfig } from "../Config.ts"

const LEVELS: Record<AppConfig["Service"]["logLevel"], LogLevel.LogLevel> = {
  debug: "Debug",
  info: "Info",
  warning: "Warn",
  error: "Error",
  none: "None"
}

export const LoggerLive = Layer.unwrap(
  AppConfig.useSync(({ logFormat, logLevel }) =>
    Layer.mergeAll(
      Logger.layer([logFormat === "json" ? Logger.consoleJson : Logger.consolePretty()]),
      Layer.succeed(References.MinimumLogLevel, LEVELS[logLevel])
    )
  )
)
