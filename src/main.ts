/** Composition root: the command line, which serves (the server or its workers) unless an offline command is named. */
import { Cause, Effect } from "effect"
import * as Cli from "./Cli/index.ts"
import { CliEnvironmentLive } from "./Platform/CliEnvironment.ts"
import { reportStartFailure, runMain } from "./Platform/Runtime.ts"
import { launch, ServerLive } from "./Platform/Server.ts"

const serve = launch(ServerLive).pipe(
  Effect.tapCause((cause) => Effect.sync(() => reportStartFailure(Cause.squash(cause))))
)

Cli.run(serve).pipe(Effect.provide(CliEnvironmentLive), runMain({ disableErrorReporting: true }))
