/**
 * WORKERS=N: N processes serve one port (SO_REUSEPORT: the kernel spreads connections among them), supervised by a
 * primary that serves nothing (Supervisor.ts). More than one needs REDIS_URL, so that they share one rate limit.
 */
import { ConfigError, Effect, Layer, Option } from "effect"
import { integer, optionalText } from "./Config.ts"
import { supervise, WORKER_ENV } from "./Supervisor.ts"

export { WorkerStartFailed } from "./Supervisor.ts"

/** Some(index) in a worker started by the primary. */
export const workerIndex = optionalText(WORKER_ENV)

/** In a worker, once it serves: tells the primary, and ends itself if the primary is gone. */
export const WorkerReadyLive = Layer.effectDiscard(
  Effect.sync(() => {
    process.send?.("ready")
    process.once("disconnect", () => process.kill(process.pid, "SIGTERM"))
  })
)

const settings = Effect.gen(function* () {
  const workers = yield* integer("WORKERS", 1, 1, 256)
  if (workers > 1 && Option.isNone(yield* optionalText("REDIS_URL"))) {
    return yield* Effect.fail(
      ConfigError.InvalidData(["WORKERS"], "WORKERS above 1 requires REDIS_URL, so the processes share one rate limit")
    )
  }
  const port = yield* integer("PORT", 3000, 0, 65_535)
  const host = Option.getOrElse(yield* optionalText("HOST"), () => "0.0.0.0").trim()
  const noKeys = Option.isNone(yield* optionalText("API_KEYS")) && Option.isNone(yield* optionalText("API_KEYS_FILE"))
  return { workers, port, host, noKeys }
})

/** Serves in this process, or with WORKERS above 1, supervises that many workers that do. */
export const launch = <E>(server: Layer.Layer<never, E>, logger: Layer.Layer<never, unknown>) =>
  Effect.gen(function* () {
    if (Option.isSome(yield* workerIndex)) return yield* Layer.launch(server)
    const { workers, port, host, noKeys } = yield* settings
    if (workers === 1) return yield* Layer.launch(server)
    return yield* supervise(workers, port, host, noKeys).pipe(Effect.provide(logger))
  })
