/** Composition root: the command line, which serves (the server or its workers) unless an offline command is named. */
import { Cause, Effect } from "effect"
import { reportStartFailure, runMain } from "./Platform/Runtime.ts"
import { launch, ServerLive } from "./Platform/Server.ts"

const serve = launch(ServerLive).pipe(
  Effect.tapCause((cause) => Effect.sync(() => reportStartFailure(Cause.squash(cause))))
)

// Without arguments (a server, or a worker its supervisor spawned) the process serves: the command line and its
// commands are imported only when there is one to read.
const commandLine = Effect.promise(() =>
  Promise.all([import("./Cli/index.ts"), import("./Platform/CliEnvironment.ts")])
).pipe(Effect.flatMap(([Cli, { CliEnvironmentLive }]) => Cli.run(serve).pipe(Effect.provide(CliEnvironmentLive))))

const main = process.argv.length > 2 ? commandLine : serve

main.pipe(runMain({ disableErrorReporting: true }))
