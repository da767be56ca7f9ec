/** Composition root: the command line, then the server (or its workers); a failed start is one line and exit 1. */
import { Cause, Effect } from "effect"
import { reportStartFailure, shouldServe } from "./Platform/CommandLine.ts"
import { runMain } from "./Platform/Runtime.ts"
import { ServerLive } from "./Platform/Server.ts"
import { launch } from "./Platform/Workers.ts"

if (shouldServe(process.argv.slice(2))) {
  launch(ServerLive).pipe(
    Effect.tapCause((cause) => Effect.sync(() => reportStartFailure(Cause.squash(cause)))),
    runMain({ disableErrorReporting: true })
  )
}
