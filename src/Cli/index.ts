// The command line (docs/CLI.md); `--help` lists every variable: Config.ts's SETTINGS and OtlpConfig.ts's OTEL_NAMES.
import { Data, Effect, Runtime } from "effect"
import { CliError, Command } from "effect/cli"
import pkg from "../../package.json" with { type: "json" }
import { SETTINGS } from "../Config.ts"
import { OTEL_NAMES } from "../Observability/OtlpConfig.ts"
import { GenerateCommand } from "./Generate.ts"
import { HealthCommand } from "./Health.ts"
import { ParseCommand } from "./Parse.ts"
import { WageCommand } from "./Wage.ts"

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
