// `tools-api health`: the image's HEALTHCHECK and a Kubernetes probe, with nothing added to the image (docs/CLI.md).
import { Data, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as EnvVar from "../EnvVar.ts"
import { integerFlag } from "./Integer.ts"
import { stderr } from "./Report.ts"

class Unhealthy extends Data.TaggedError("Unhealthy")<{ readonly message: string }> {}

// the listen address as a client on this machine reaches it: a wildcard is the loopback
const defaultUrl = Effect.gen(function* () {
  const port = yield* EnvVar.integer("PORT", 3000, 0, 65_535)
  const host = (yield* EnvVar.text("HOST")) ?? "0.0.0.0"
  const local = host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "[::1]" : host
  return `http://${local.includes(":") && !local.startsWith("[") ? `[${local}]` : local}:${port}/health`
})

const flags = {
  url: Flag.String("url").pipe(
    Flag.withDescription("The health URL (default: http://127.0.0.1:$PORT/health, from PORT and HOST)"),
    Flag.withDefault(undefined)
  ),
  timeout: integerFlag("timeout").pipe(Flag.withDescription("Seconds to wait for the answer"), Flag.withDefault(3))
}

const run = Effect.fn("Cli.health")(
  function* (options: Command.Command.Config.Infer<typeof flags>) {
    const url = options.url ?? (yield* defaultUrl)
    const response = yield* Effect.tryPromise({
      try: (signal) => fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeout * 1000)]) }),
      catch: (error) =>
        new Unhealthy({ message: `${url} did not answer: ${error instanceof Error ? error.message : error}` })
    })
    if (response.status !== 200) return yield* new Unhealthy({ message: `${url} answered ${response.status}` })
  },
  Effect.tapErrorTag("Unhealthy", (error) => stderr(`tools-api health: ${error.message}\n`))
)

export const HealthCommand = Command.make("health", flags, run).pipe(
  Command.withShortDescription("Exit 0 when the service on this machine answers /health, else 1"),
  Command.withDescription(
    "Ask the service running on this machine for /health: exit 0 when it answers 200, 1 when it is draining, " +
      "refuses the connection or takes longer than --timeout. For container health checks and probes."
  )
)
