/**
 * Runs the main effect as `BunRuntime.runMain` would (there is no stable `@effect/platform-bun` for Effect 4):
 * SIGINT and SIGTERM interrupt it, so every finalizer (the drain among them) runs, and a stop by signal exits 0.
 * SIGHUP never stops it: its default action would end the process at once, dropping requests; the layers that
 * act on it (re-reading keys, forwarding to workers) add their own listeners.
 */
import { Cause, Effect, Exit, Runtime } from "effect"

/**
 * A stop by signal ends the process with this status instead of 0: for a command whose output a script must not take
 * as complete (an offline parse cut short is 130, as shells report a program stopped by SIGINT).
 */
export const exitOnInterrupt =
  (code: number) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.onInterrupt(self, () =>
      Effect.sync(() => {
        process.exitCode = code
      })
    )

export const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  const stop = () => fiber.interruptUnsafe()
  const ignore = () => {}
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  process.on("SIGHUP", ignore)
  fiber.addObserver((exit) => {
    process.off("SIGINT", stop)
    process.off("SIGTERM", stop)
    process.off("SIGHUP", ignore)
    if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) return process.exit(process.exitCode ?? 0)
    teardown(exit, (code) => process.exit(code))
  })
})
