/**
 * WORKERS=N: N processes serve one port (SO_REUSEPORT), supervised by a primary that serves nothing (Supervisor.ts).
 */
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { holdsNoKey } from "../Services/ApiKeyStore.ts"
import { logDescriptorLimit } from "./Descriptors.ts"
import { LoggerLive } from "../Observability/Logger.ts"
import { supervise } from "./Supervisor.ts"

/** In a worker, once it serves: tells the primary, answers its heartbeat, and ends itself if the primary is gone. */
export const WorkerReadyLive = Layer.effectDiscard(
  Effect.sync(() => {
    process.send?.("ready")
    process.on("message", (message) => message === "ping" && process.send?.("pong"))
    process.once("disconnect", () => process.kill(process.pid, "SIGTERM"))
  })
)

/** Serves in this process, or supervises WORKERS workers that do (the logger's layer writes its lines as it closes). */
export const launch = <E>(server: Layer.Layer<never, E>) =>
  Effect.gen(function* () {
    const { apiKeys, apiKeysFile, host, port, workerIndex, workers } = yield* AppConfig
    // Workers inherit the primary's limits.
    if (workerIndex === undefined) yield* logDescriptorLimit.pipe(Effect.provide(LoggerLive))
    if (workerIndex !== undefined || workers === 1) return yield* Layer.launch(server)
    const noKeys = apiKeys === undefined && (apiKeysFile === undefined || holdsNoKey(apiKeysFile))
    return yield* supervise(workers, port, host, noKeys).pipe(Effect.provide(LoggerLive))
  }).pipe(Effect.provide(AppConfig.layer))
