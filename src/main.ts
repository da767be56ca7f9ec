/** Composition root: the command line, which serves (the server or its workers) unless an offline command is named. */
import { isMainThread } from "node:worker_threads"
import { Cause, Effect } from "effect"
import { reportStartFailure, runMain } from "./Platform/Runtime.ts"

// Each part is imported by the path that uses it: a server or a worker (started without arguments) loads nothing of
// the command line, and an offline command nothing of the server.
const serve = Effect.promise(() => import("./Platform/Server.ts")).pipe(
  Effect.flatMap(({ launch, ServerLive }) => launch(ServerLive)),
  Effect.tapCause((cause) => Effect.sync(() => reportStartFailure(Cause.squash(cause))))
)

// a command reports its own failures; its modules not loading (a generated file missing) is said here
const commandLine = Effect.promise(() =>
  Promise.all([import("./Cli/index.ts"), import("./Platform/CliEnvironment.ts")])
).pipe(
  Effect.tapCause((cause) => Effect.sync(() => reportStartFailure(Cause.squash(cause)))),
  Effect.flatMap(([Cli, { CliEnvironmentLive }]) => Cli.run(serve).pipe(Effect.provide(CliEnvironmentLive)))
)

// a `parse --jobs` worker thread (Cli/parse/Pool.ts) runs this entry too, and only answers its main thread's parses
const parseWorker = Effect.promise(() => import("./Cli/parse/Thread.ts")).pipe(
  Effect.flatMap((thread) => thread.answerBlocks),
  Effect.tapCause((cause) => Effect.sync(() => reportStartFailure(Cause.squash(cause))))
)

const main = !isMainThread ? parseWorker : process.argv.length > 2 ? commandLine : serve

main.pipe(runMain({ disableErrorReporting: true }))
