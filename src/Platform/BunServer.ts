/** The application on `Bun.serve`, as a web handler sharing the running program's services and finalizers. */
import { Context, Effect, Layer, Predicate, Result } from "effect"
import { HttpEffect, HttpRouter, type HttpServerRequest } from "effect/http"
import { AppConfig, InvalidConfig } from "../Config.ts"
import { PeerAddress } from "../Http/ClientAddress.ts"
import { PrometheusRoute } from "../Observability/Metrics.ts"

const canListen = (hostname: string): boolean =>
  Result.isSuccess(Result.try(() => Bun.serve({ hostname, port: 0, fetch: () => new Response() }).stop(true)))

// Names the variable at fault, as Bun's errors mislead: the host's if nothing can listen on it, else the port's.
const listen = (options: Bun.Serve.Options<undefined>, names = { host: "HOST", port: "PORT" }) =>
  Effect.try({
    try: () => Bun.serve(options),
    catch: (error) => {
      const { hostname = "", port } = options
      if (!canListen(hostname)) {
        const message = `${names.host} must be an address of this machine to listen on, got ${JSON.stringify(hostname)}`
        return new InvalidConfig({ message })
      }
      const code = Predicate.hasProperty(error, "code") ? error.code : undefined
      const why = code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${String(code)})`
      return new InvalidConfig({ message: `${names.port} ${port} ${why} on ${hostname}` })
    }
  })

/** The URL a listener is reached at, as logged: an IPv6 address in brackets. */
export const origin = (hostname: string, port: number) =>
  `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`

/** `app` on a `Bun.serve` of its own, in this program's context, stopped with its scope. */
export const serve = <E, R>(
  app: Layer.Layer<never, E, R>,
  options: { hostname: string; port: number; idleTimeout?: number; reusePort?: boolean; maxRequestBodySize?: number },
  names?: { host: string; port: string }
) =>
  Effect.gen(function* () {
    // Bun's server knows each request's socket: the lookup is provided once, not a context made per request.
    let serving: Bun.Server<undefined> | undefined
    const peer = (request: HttpServerRequest.HttpServerRequest) =>
      serving?.requestIP(request.source as Request)?.address
    const context = Context.add(yield* Effect.context<never>(), PeerAddress, peer)
    const handle = HttpEffect.toWebHandlerWith<never, unknown, never>(context)(yield* HttpRouter.toHttpEffect(app))
    const server = yield* listen({ ...options, fetch: (request: Request) => handle(request) }, names)
    serving = server
    yield* Effect.addFinalizer(() => Effect.promise(() => server.stop()))
    return server
  })

/** Workers bind with SO_REUSEPORT, so could share a port with another deployment's: the primary checks first. */
export const claimPort = (hostname: string, port: number): Effect.Effect<number, InvalidConfig> =>
  Effect.map(listen({ hostname, port, fetch: () => new Response() }), (probe) => {
    const claimed = probe.port ?? port // read before the stop, which forgets it
    probe.stop(true)
    return claimed
  })

export class ServerAddress extends Context.Service<
  ServerAddress,
  { readonly hostname: string; readonly port: number }
>()("app/ServerAddress") {}

export const layer = <E, R>(app: Layer.Layer<never, E, R>) =>
  Layer.effect(
    ServerAddress,
    Effect.gen(function* () {
      const { host: hostname, idleTimeoutSeconds, port, workerIndex } = yield* AppConfig
      const server = yield* serve(app, {
        hostname,
        port,
        idleTimeout: idleTimeoutSeconds,
        // A worker shares the port with its siblings; a lone process must find it free.
        reusePort: workerIndex !== undefined,
        // Bun answers an empty 413 past its own cap; the app enforces MAX_BODY_BYTES itself, with the envelope.
        maxRequestBodySize: 1 << 30
      })
      return { hostname: server.hostname ?? hostname, port: server.port ?? port }
    })
  )

// METRICS_PORT: /metrics on a listener of its own, served as the API is, and off the public port.
export const MetricsListenerLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const { host, metrics, metricsHost, metricsPort } = yield* AppConfig
    if (!metrics || metricsPort === undefined) return
    const hostname = metricsHost ?? host
    const names = { host: "METRICS_HOST", port: "METRICS_PORT" }
    const server = yield* serve(PrometheusRoute, { hostname, port: metricsPort }, names)
    yield* Effect.logInfo(`Metrics on ${origin(hostname, server.port ?? metricsPort)}/metrics`)
  })
)
