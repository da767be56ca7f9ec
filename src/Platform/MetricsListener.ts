/** METRICS_PORT: /metrics on a listener of its own, served as BunServer.ts serves the API, and off the public port. */
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { PrometheusRoute } from "../Observability/Metrics.ts"
import { serve } from "./BunServer.ts"

export const MetricsListenerLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const { host, metrics, metricsHost, metricsPort } = yield* AppConfig
    if (!metrics || metricsPort === undefined) return
    const hostname = metricsHost ?? host
    const names = { host: "METRICS_HOST", port: "METRICS_PORT" }
    const server = yield* serve(PrometheusRoute, { hostname, port: metricsPort }, names)
    const shown = hostname.includes(":") ? `[${hostname}]` : hostname
    yield* Effect.logInfo(`Metrics on http://${shown}:${server.port}/metrics`)
  })
)
