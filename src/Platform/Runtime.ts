/**
 * Runs the main effect as `BunRuntime.runMain` would (there is no stable `@effect/platform-bun` for Effect 4):
 * SIGINT and SIGTERM interrupt it, so every finalizer (the drain among them) runs, and a stop by signal exits 0.
 */
import { Cause, Exit, Runtime } from "effect"

export const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  const stop = () => fiber.interruptUnsafe()
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  fiber.addObserver((exit) => {
    process.off("SIGINT", stop)
    process.off("SIGTERM", stop)
    if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) return process.exit(0)
    teardown(exit, (code) => process.exit(code))
  })
})
