/** Composition root: read the command line, launch the server, turn a bad setting into one line and exit 1. */
import * as BunRuntime from "@effect/platform-bun/BunRuntime"
import { ConfigError, Effect } from "effect"
import pkg from "../package.json" with { type: "json" }
import { describe } from "./Config.ts"
import { LoggerLive, ServerLive } from "./Server.ts"
import { launch, WorkerStartFailed } from "./Workers.ts"

const HELP = `tools-api ${pkg.version}: user-agent parser/generator and wage estimator, JSON over HTTP.

Usage: tools-api [--help | --version]

Configured by environment variables (see README): PORT, HOST, API_KEYS, API_KEYS_FILE,
RATE_LIMIT_PER_MINUTE, AUTH_FAILURES_PER_MINUTE, MAX_BODY_BYTES, LOG_LEVEL, LOG_FORMAT,
METRICS, TRUST_PROXY, UA_CACHE_SIZE, IDLE_TIMEOUT_SECONDS, REDIS_URL, WORKERS.
Docs at /docs, OpenAPI at /openapi.json.
`

const argument = process.argv.slice(2).find((arg) => arg.startsWith("-"))
if (argument === "--help" || argument === "-h") {
  process.stdout.write(HELP)
} else if (argument === "--version" || argument === "-v") {
  process.stdout.write(`${pkg.version}\n`)
} else if (argument !== undefined) {
  process.stderr.write(`tools-api: unknown option ${argument}; see --help\n`)
  process.exitCode = 2
} else {
  launch(ServerLive, LoggerLive).pipe(
    Effect.tapErrorCause((cause) =>
      Effect.sync(() => {
        const failure = cause._tag === "Fail" ? cause.error : undefined
        if (failure instanceof WorkerStartFailed) return // the worker has said why
        process.stderr.write(
          ConfigError.isConfigError(failure)
            ? `tools-api: invalid configuration: ${describe(failure)}\n`
            : `tools-api: could not start: ${String(failure ?? cause)}\n`
        )
      })
    ),
    BunRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
  )
}
