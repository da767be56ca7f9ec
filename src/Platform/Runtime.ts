// `BunRuntime.runMain`'s part (no stable `@effect/platform-bun` for Effect 4): SIGINT and SIGTERM interrupt, so every
// finalizer runs and the exit is 0. SIGHUP is ignored here, as its default would end the process mid-request.
import { Cause, Effect, Exit, Predicate, Runtime } from "effect"

/** A stop by signal exits 130 instead, so a script knows an offline answer was cut short. */
export const exitOnInterrupt = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.onInterrupt(self, () =>
    Effect.sync(() => {
      process.exitCode = 130
    })
  )

export const reportStartFailure = (failure: unknown): void => {
  if (Predicate.isTagged(failure, "WorkerStartFailed")) return // the worker has said why
  const config = Predicate.isTagged(failure, "InvalidConfig") && failure instanceof Error
  process.stderr.write(
    `tools-api: ${config ? `invalid configuration: ${failure.message}` : `could not start: ${failure}`}\n`
  )
}

export const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  const stop = () => fiber.interruptUnsafe()
  const handlers = Object.entries({ SIGINT: stop, SIGTERM: stop, SIGHUP: () => {} })
  for (const [signal, handler] of handlers) process.on(signal, handler)
  fiber.addObserver((exit) => {
    for (const [signal, handler] of handlers) process.off(signal, handler)
    if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) return process.exit(process.exitCode ?? 0)
    teardown(exit, (code) => process.exit(code))
  })
})
