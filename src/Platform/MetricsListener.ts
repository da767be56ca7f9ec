/** METRICS_PORT: /metrics on a listener of its own, served as BunServer.ts serves the API, and off the public port. */
import { Effect, Layer } from "effect"
import { HttpEffect, HttpRouter } from "effect/http"
import { AppConfig, InvalidConfig } from "../Config.ts"
import { PrometheusRoute } from "../Observability/Metrics.ts"

export const MetricsListenerLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const { host, metrics, metricsHost, metricsPort } = yield* AppConfig
    if (!metrics || metricsPort === undefined) return
    const hostname = metricsHost ?? host
    const app = yield* HttpRouter.toHttpEffect(PrometheusRoute)
    const handle = HttpEffect.toWebHandlerWith<never, unknown, never>(yield* Effect.context<never>())(app)
    const server = yield* Effect.try({
      try: () => Bun.serve({ hostname, port: metricsPort, fetch: (request) => handle(request) }),
      catch: (error) => {
        const code = (error as { readonly code?: unknown } | undefined)?.code
        const why = code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${String(code)})`
        return new InvalidConfig({ message: `METRICS_PORT ${metricsPort} ${why} on METRICS_HOST ${hostname}` })
      }
    })
    yield* Effect.addFinalizer(() => Effect.promise(() => server.stop()))
    const shown = hostname.includes(":") ? `[${hostname}]` : hostname
    yield* Effect.logInfo(`Metrics on http://${shown}:${server.port}/metrics`)
  })
)
