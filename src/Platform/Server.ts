/** The served application, composed: what `main.ts` launches. */
import { Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { ToolsApi } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { ApiRoutes } from "../Http/Routes.ts"
import { HttpLive } from "../Http.ts"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
import { Drain } from "../Services/Drain.ts"
import { RateLimiterLive } from "../RateLimit/Limiter.ts"
import * as BunServer from "./BunServer.ts"
import { MetricsListenerLive } from "./MetricsListener.ts"
import { ObservabilityLive } from "../Observability/Otlp.ts"
import { WorkerReadyLive } from "./Workers.ts"

/** Built after the server, so on shutdown it runs first: new requests get 503 while in-flight ones finish. */
const DrainOnShutdown = Layer.effectDiscard(
  Effect.gen(function* () {
    const drain = yield* Drain
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        yield* Effect.logInfo("Shutting down: finishing in-flight requests").pipe(
          Effect.annotateLogs("inFlight", drain.inFlight())
        )
        const unfinished = yield* drain.drain()
        yield* Effect.logInfo("Stopped").pipe(Effect.annotateLogs("unfinished", unfinished))
      })
    )
  })
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

/**
 * Once the server listens: a lone process logs its address, a worker tells its primary (which logs one address for
 * all), and a generated key is printed, so a start that failed prints no key that never served.
 */
const Started = Layer.unwrap(
  Effect.gen(function* () {
    const { workerIndex } = yield* AppConfig
    const { hostname, port } = yield* BunServer.ServerAddress
    const announce = Layer.effectDiscard(ApiKeyStore.use((store) => store.announce))
    if (workerIndex !== undefined) return Layer.merge(WorkerReadyLive, announce)
    const host = hostname.includes(":") ? `[${hostname}]` : hostname
    return Layer.merge(Layer.effectDiscard(Effect.logInfo(`Listening on http://${host}:${port}`)), announce)
  })
)

export const ServicesLive = Layer.mergeAll(ApiKeyStore.layer, RateLimiterLive, Drain.layer)

/** The log and OTLP export, with the routes of the API served, which name its spans and the application reads. */
export const ObservabilityServed = ObservabilityLive.pipe(Layer.provideMerge(ApiRoutes.layer(ToolsApi)))

export const ServerLive = Layer.mergeAll(DrainOnShutdown, Started, ReloadKeysOnHangup).pipe(
  Layer.provide(BunServer.layer(HttpLive.pipe(Layer.provide(HttpServer.layerServices)))),
  // First: a METRICS_PORT that cannot be listened on stops the start before the public port listens.
  Layer.provide(MetricsListenerLive),
  Layer.provide(ServicesLive),
  Layer.provide(ObservabilityServed),
  Layer.provide(AppConfig.layer)
)
