/**
 * `tools-api health`: asks the service running on this machine for `/health` and exits 0 when it answers ok, 1
 * otherwise (draining, refused, too slow) with one line on stderr: the image's HEALTHCHECK and a Kubernetes probe,
 * with nothing added to the image.
 */
import { Data, Effect, Option, Runtime, Stdio, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import * as EnvVar from "../EnvVar.ts"

export class Unhealthy extends Data.TaggedError("Unhealthy")<{ readonly message: string }> {
  override readonly [Runtime.errorExitCode] = 1
}

// the listen address as a client on this machine reaches it: a wildcard is the loopback
const local = (host: string) => (host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "[::1]" : host)
const bracketed = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host)

const defaultUrl = Effect.gen(function* () {
  const port = yield* EnvVar.integer("PORT", 3000, 0, 65_535)
  const host = (yield* EnvVar.text("HOST")) ?? "0.0.0.0"
  return `http://${bracketed(local(host))}:${port}/health`
})

const check = (url: string, timeoutMs: number) =>
  Effect.tryPromise({
    try: (signal) => fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) }),
    catch: (error) =>
      new Unhealthy({ message: `${url} did not answer: ${error instanceof Error ? error.message : error}` })
  }).pipe(
    Effect.flatMap((response) =>
      response.status === 200
        ? Effect.void
        : Effect.fail(new Unhealthy({ message: `${url} answered ${response.status}` }))
    )
  )

const run = Effect.fn("Cli.health")(function* (flags: {
  readonly url: Option.Option<string>
  readonly timeout: number
}) {
  const url = Option.isSome(flags.url) ? flags.url.value : yield* defaultUrl
  const stdio = yield* Stdio.Stdio
  yield* check(url, flags.timeout * 1000).pipe(
    Effect.tapError((unhealthy) =>
      Stream.run(Stream.make(`tools-api health: ${unhealthy.message}\n`), stdio.stderr()).pipe(Effect.ignore)
    )
  )
})

export const HealthCommand = Command.make(
  "health",
  {
    url: Flag.String("url").pipe(
      Flag.withDescription("The health URL (default: http://127.0.0.1:$PORT/health, from PORT and HOST)"),
      Flag.optional
    ),
    timeout: Flag.Int("timeout").pipe(Flag.withDescription("Seconds to wait for the answer"), Flag.withDefault(3))
  },
  run
).pipe(
  Command.withShortDescription("Exit 0 when the service on this machine answers /health, else 1"),
  Command.withDescription(
    "Ask the service running on this machine for /health: exit 0 when it answers 200, 1 when it is draining, " +
      "refuses the connection or takes longer than --timeout. For container health checks and probes."
  )
)
