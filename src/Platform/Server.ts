/** The served application, composed and launched: in this process, or by WORKERS workers on one port. */
import { Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { ToolsApi } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { ApiRoutes, pathOf } from "../Http/Routes.ts"
import { HttpLive } from "../Http.ts"
import { LoggerLive } from "../Observability/Logger.ts"
import { Metrics } from "../Observability/Metrics.ts"
import { ObservabilityLive } from "../Observability/Otlp.ts"
import { RateLimiterLive } from "../RateLimit/Limiter.ts"
import { ApiKeyStore, holdsNoKey } from "../Services/ApiKeyStore.ts"
import { Drain } from "../Services/Drain.ts"
import * as BunServer from "./BunServer.ts"
import { logDescriptorLimit } from "./Descriptors.ts"
import { supervise } from "./Supervisor.ts"

/** Built after the server, so on shutdown it runs first: new requests get 503 while in-flight ones finish. */
const DrainOnShutdown = Layer.effectDiscard(
  Drain.use((drain) =>
    Effect.addFinalizer(() =>
      Effect.gen(function* () {
        const inFlight = yield* drain.inFlight
        yield* Effect.logInfo("Shutting down: finishing in-flight requests").pipe(
          Effect.annotateLogs("inFlight", inFlight)
        )
        const unfinished = yield* drain.drain()
        yield* Effect.logInfo("Stopped").pipe(Effect.annotateLogs("unfinished", unfinished))
      })
    )
  )
)

/** SIGHUP re-reads API_KEYS_FILE; requests keep being served with the keys in use until the new ones replace them. */
const ReloadKeysOnHangup = Layer.effectDiscard(
  Effect.gen(function* () {
    const { reload } = yield* ApiKeyStore
    const run = Effect.runForkWith(yield* Effect.context<never>())
    const onHangup = () => void run(reload)
    process.on("SIGHUP", onHangup)
    yield* Effect.addFinalizer(() => Effect.sync(() => process.off("SIGHUP", onHangup)))
  })
)

/** In a worker: tells the primary it serves, answers its heartbeat, and ends itself if the primary is gone. */
const workerReady = Effect.sync(() => {
  process.send?.("ready")
  process.on("message", (message) => {
    if (message === "ping") process.send?.("pong")
  })
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"))
})

/** Once the server listens: its address logged (by the primary for workers), then a generated key printed. */
const Started = Layer.effectDiscard(
  Effect.gen(function* () {
    const { hostname, port } = yield* BunServer.ServerAddress
    if ((yield* AppConfig).workerIndex === undefined)
      yield* Effect.logInfo(`Listening on ${BunServer.origin(hostname, port)}`)
    else yield* workerReady
    yield* ApiKeyStore.use((store) => store.announce)
  })
)

/** The open-file limit raised and logged by the process that listens: a worker inherits its primary's. */
const DescriptorLimit = Layer.effectDiscard(
  Effect.gen(function* () {
    if ((yield* AppConfig).workerIndex === undefined) yield* logDescriptorLimit
  })
)

export const ServicesLive = Layer.mergeAll(ApiKeyStore.layer, RateLimiterLive, Drain.layer).pipe(
  Layer.provideMerge(Metrics.layer)
)

/** The log and OTLP export, with the routes of the API served, which name its spans and the application reads. */
export const ObservabilityServed = Layer.unwrap(
  ApiRoutes.useSync((routes) => ObservabilityLive((url) => routes.routeOf(pathOf(url))))
).pipe(Layer.provideMerge(ApiRoutes.layer(ToolsApi)))

export const ServerLive = Layer.mergeAll(DrainOnShutdown, Started, ReloadKeysOnHangup).pipe(
  Layer.provide(BunServer.layer(HttpLive.pipe(Layer.provide(HttpServer.layerServices)))),
  // First: a METRICS_PORT that cannot be listened on stops the start before the public port listens.
  Layer.provide(BunServer.MetricsListenerLive),
  Layer.provide(ServicesLive),
  // First of all that logs, with the logger the server runs with.
  Layer.provide(DescriptorLimit),
  Layer.provide(ObservabilityServed),
  Layer.provide(AppConfig.layer)
)

/** Serves in this process, or supervises WORKERS workers that do (the logger's layer writes its lines as it closes). */
export const launch = <E>(server: Layer.Layer<never, E>) =>
  Effect.gen(function* () {
    const { apiKeys, apiKeysFile, host, port, workerIndex, workers } = yield* AppConfig
    if (workerIndex !== undefined || workers === 1) return yield* Layer.launch(server)
    const noKeys = apiKeys === undefined && (apiKeysFile === undefined || holdsNoKey(apiKeysFile))
    // The workers inherit the limit raised here.
    return yield* Effect.andThen(logDescriptorLimit, supervise(workers, port, host, noKeys)).pipe(
      Effect.provide(LoggerLive)
    )
  }).pipe(Effect.provide(AppConfig.layer))
