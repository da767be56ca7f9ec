// The command line (docs/CLI.md). `--help` lists every variable the service reads: the names come from `Config.ts`
// (the OTEL_* ones from `OtlpConfig.ts`), so a new variable without a line here does not type-check.
import { Data, Effect, Runtime } from "effect"
import { CliError, Command } from "effect/cli"
import pkg from "../../package.json" with { type: "json" }
import { GENERATED_KEY_ENV, NAMES, WORKER_ENV } from "../Config.ts"
import { OTEL_NAMES } from "../Observability/OtlpConfig.ts"
import { GenerateCommand } from "./Generate.ts"
import { HealthCommand } from "./Health.ts"
import { ParseCommand } from "./Parse.ts"
import { WageCommand } from "./Wage.ts"

type Setting = Exclude<
  (typeof NAMES)[number],
  typeof WORKER_ENV | typeof GENERATED_KEY_ENV | (typeof OTEL_NAMES)[number]
>

const SETTINGS: Record<Setting, string> = {
  PORT: "listen port (default 3000; 0 = any free port)",
  HOST: "listen address (default 0.0.0.0)",
  API_KEYS: "comma-separated API keys",
  API_KEYS_FILE: "file of API keys, one a line (sha256:<hex> for a digest); SIGHUP re-reads it",
  RATE_LIMIT_PER_MINUTE: "requests a key may make a minute (default 100)",
  AUTH_FAILURES_PER_MINUTE: "failed authentications an address may make a minute (default 20)",
  MAX_BODY_BYTES: "request body limit (default 16384)",
  LOG_LEVEL: "debug, info (default), warning, error or none",
  LOG_FORMAT: "json (default) or pretty",
  METRICS: "serve /metrics (default true)",
  METRICS_PORT: "serve /metrics on this port only, not the public one (default: on the public one)",
  METRICS_HOST: "METRICS_PORT's listen address (default HOST's)",
  TRUST_PROXY: "take the client address from X-Forwarded-For (default false)",
  UA_CACHE_SIZE: "user-agent parses kept in memory (default 10000; 0 = none); offline too",
  IDLE_TIMEOUT_SECONDS: "seconds an idle connection stays open (default 30)",
  REDIS_URL: "redis://host:port: keep rate limits in Redis, shared by every instance",
  WORKERS: "processes sharing the port (default 1; more needs REDIS_URL)",
  CORS_ORIGINS: "comma-separated origins allowed from a browser, or *",
  PUBLIC_URL: "the base URL clients use, for the OpenAPI document"
}

const width = Math.max(...Object.keys(SETTINGS).map((name) => name.length))

const DESCRIPTION = [
  "User-agent parser/generator and wage estimator: JSON over HTTP, or offline commands.",
  "  With no command it serves the API (docs at /docs, OpenAPI at /openapi.json); see the commands below.",
  "",
  "ENVIRONMENT (read when serving)",
  ...Object.entries(SETTINGS).map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`),
  "  OpenTelemetry export over OTLP/HTTP (off unless an endpoint is set), the standard variables:",
  // wrapped at 100 columns under a four-space indent
  OTEL_NAMES.join(", ")
    .replace(/(.{1,95})(?: |$)/g, "    $1\n")
    .trimEnd(),
  "",
  "SIGNALS",
  "  SIGTERM/SIGINT drain and stop; SIGHUP re-reads API_KEYS_FILE."
].join("\n")

/** The command line was not understood (its help and the error are already shown): exit status 2. */
export class UsageError extends Data.TaggedError("UsageError") {
  override readonly [Runtime.errorExitCode] = 2
}

/** Runs the command line on the process's arguments, serving with `serve` when no offline command is named. */
export const run = <E, R>(serve: Effect.Effect<void, E, R>) =>
  Command.make("tools-api", {}, () => serve).pipe(
    Command.withDescription(DESCRIPTION),
    Command.withSubcommands([
      Command.make("serve", {}, () => serve).pipe(
        Command.withDescription("Serve the API (what tools-api does with no command)")
      ),
      ParseCommand,
      GenerateCommand,
      WageCommand,
      HealthCommand
    ]),
    Command.run({ version: pkg.version }),
    Effect.catchIf(CliError.isCliError, () => Effect.fail(new UsageError()))
  )
