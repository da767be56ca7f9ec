/** The command line: `--help` and `--version` answer and return false; anything else unknown is exit code 2. */
import pkg from "../../package.json" with { type: "json" }

const HELP = `tools-api ${pkg.version}: user-agent parser/generator and wage estimator, JSON over HTTP.

Usage: tools-api [--help | --version]

Configured by environment variables (see README): PORT, HOST, API_KEYS, API_KEYS_FILE,
RATE_LIMIT_PER_MINUTE, AUTH_FAILURES_PER_MINUTE, MAX_BODY_BYTES, LOG_LEVEL, LOG_FORMAT,
METRICS, TRUST_PROXY, UA_CACHE_SIZE, IDLE_TIMEOUT_SECONDS, REDIS_URL, WORKERS, CORS_ORIGINS, PUBLIC_URL.
Signals: SIGTERM/SIGINT drain and stop; SIGHUP re-reads API_KEYS_FILE.
Docs at /docs, OpenAPI at /openapi.json.
`

/** Whether the program should go on to serve. */
export const shouldServe = (args: ReadonlyArray<string>): boolean => {
  const argument = args.find((arg) => arg.startsWith("-"))
  if (argument === undefined) return true
  if (argument === "--help" || argument === "-h") process.stdout.write(HELP)
  else if (argument === "--version" || argument === "-v") process.stdout.write(`${pkg.version}\n`)
  else {
    process.stderr.write(`tools-api: unknown option ${argument}; see --help\n`)
    process.exitCode = 2
  }
  return false
}

/** A failed start as the one line on stderr: a bad setting names its variable. */
export const reportStartFailure = (failure: unknown): void => {
  const tag = (failure as { readonly _tag?: unknown } | undefined)?._tag
  if (tag === "WorkerStartFailed") return // the worker has said why
  const message = tag === "InvalidConfig" ? `invalid configuration: ${(failure as Error).message}` : String(failure)
  process.stderr.write(`tools-api: ${tag === "InvalidConfig" ? message : `could not start: ${message}`}\n`)
}
