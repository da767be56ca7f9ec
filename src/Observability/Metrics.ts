// The service's metrics in Effect's default registry, updated in place on a metric made once per series. Counters
// are `incremental`: `PrometheusMetrics` types every counter `counter`, so one that may go down must be a gauge.
import { Context, Layer, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { AppConfig } from "../Config.ts"
import { METRICS_PATH } from "../Http/Routes.ts"

const NO_CONTEXT = Context.empty()
const BOUNDARIES = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** One metric object per series, made on first use: routes, statuses and reasons are few, so this stays small. */
const interned = <K, M>(make: (key: K) => M) => {
  const made = new Map<K, M>()
  return (key: K): M => {
    let found = made.get(key)
    if (found === undefined) made.set(key, (found = make(key)))
    return found
  }
}

const requests = interned((route: string) =>
  interned((status: number) =>
    Metric.counter("http_requests_total", {
      description: "HTTP requests by route and status",
      attributes: { route, status: String(status) },
      incremental: true
    })
  )
)
const latency = interned((route: string) =>
  Metric.histogram("http_request_duration_seconds", {
    description: "Time from request to response, by route",
    attributes: { route },
    boundaries: BOUNDARIES
  })
)
const rateLimited = interned((reason: string) =>
  Metric.counter("rate_limited_total", {
    description: "Requests answered 429, by reason (key: the key's bucket; address: failed authentications)",
    attributes: { reason },
    incremental: true
  })
)
// Keys are the operator's list: bounded, and each key's series made on its first request.
const keyRequests = interned((key: string) =>
  interned((outcome: string) =>
    Metric.counter("key_requests_total", {
      description: "Requests of a known key by its id (its name, else key_<8 hex>): admitted or rate_limited",
      attributes: { key, outcome },
      incremental: true
    })
  )
)
const authFailures = Metric.counter("auth_failures_total", {
  description: "Requests with no valid API key",
  incremental: true
})

// Exported from the start at 0, so a scrape before the first event sees them and rate() has a baseline.
authFailures.updateUnsafe(0, NO_CONTEXT)
for (const reason of ["key", "address"]) rateLimited(reason).updateUnsafe(0, NO_CONTEXT)

export const countAuthFailure = (): void => authFailures.updateUnsafe(1, NO_CONTEXT)
export const countRateLimited = (reason: "key" | "address"): void => rateLimited(reason).updateUnsafe(1, NO_CONTEXT)
export const countKeyRequest = (keyId: string, admitted: boolean): void =>
  keyRequests(keyId)(admitted ? "admitted" : "rate_limited").updateUnsafe(1, NO_CONTEXT)

/** One answered request, labelled by the route the router matched (`unmatched` outside the API: never a raw path). */
export const observe = (route: string, status: number, durationMs: number): void => {
  requests(route)(status).updateUnsafe(1, NO_CONTEXT)
  latency(route).updateUnsafe(durationMs / 1000, NO_CONTEXT)
}

export const PrometheusRoute = PrometheusMetrics.layerHttp({ path: METRICS_PATH })

/** On the public port, unless METRICS=false or METRICS_PORT moves it apart (then the path is an ordinary 404). */
export const MetricsRoute = Layer.unwrap(
  AppConfig.useSync(({ metrics, metricsPort }) =>
    metrics && metricsPort === undefined ? PrometheusRoute : Layer.empty
  )
)
