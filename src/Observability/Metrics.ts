// The service's metrics, registered when the layer is built, in the registry of the context that builds it (a test
// gives its own `Metric.MetricRegistry`). Counters are `incremental`: `PrometheusMetrics` types every counter
// `counter`, so one that may go down must be a gauge. Updated in place (`updateUnsafe`): the request path calls these.
import { Context, Effect, Layer, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { AppConfig } from "../Config.ts"

export const METRICS_PATH = "/metrics"

const BOUNDARIES = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** One metric object per series, made on first use: routes, statuses and reasons are few, so this stays small. */
const interned = <K, M>(make: (key: K) => M) => {
  const made = new Map<K, M>()
  return (key: K): M => {
    const found = made.get(key)
    if (found !== undefined) return found
    const metric = make(key)
    made.set(key, metric)
    return metric
  }
}

const make = Effect.gen(function* () {
  const registry = Context.make(Metric.MetricRegistry, yield* Metric.MetricRegistry)
  const counter = (name: string, description: string, attributes?: Record<string, string>) =>
    Metric.counter(name, { description, attributes, incremental: true })

  const requests = interned((route: string) =>
    interned((status: number) =>
      counter("http_requests_total", "HTTP requests by route and status", { route, status: String(status) })
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
    counter(
      "rate_limited_total",
      "Requests answered 429, by reason (key: the key's bucket; address: failed authentications)",
      { reason }
    )
  )
  // Keys are the operator's list: bounded, and each key's series made on its first request.
  const keyRequests = interned((key: string) =>
    interned((outcome: string) =>
      counter(
        "key_requests_total",
        "Requests of a known key by its id (its name, else key_<8 hex>): admitted or rate_limited",
        { key, outcome }
      )
    )
  )
  const authFailures = counter("auth_failures_total", "Requests with no valid API key")
  const cacheHits = counter("ua_parse_cache_hits_total", "User-agent parses answered from the cache")
  const cacheMisses = counter("ua_parse_cache_misses_total", "User-agent parses computed and cached")
  const storeUp = Metric.gauge("rate_limit_store_up", {
    description: "1 while Redis holds the rate limits and answers; 0 while this instance limits alone"
  })
  const storeFallbacks = counter(
    "rate_limit_store_fallbacks_total",
    "Rate-limit decisions this instance made from its own memory because Redis did not answer"
  )

  // Exported from the start at 0, so a scrape before the first event sees them and rate() has a baseline.
  for (const metric of [authFailures, cacheHits, cacheMisses, rateLimited("key"), rateLimited("address")]) {
    metric.updateUnsafe(0, registry)
  }

  return {
    /** One answered request, by the route the router matched (`unmatched` outside the API: never a raw path). */
    observe: (route: string, status: number, durationMs: number): void => {
      requests(route)(status).updateUnsafe(1, registry)
      latency(route).updateUnsafe(durationMs / 1000, registry)
    },
    countAuthFailure: (): void => authFailures.updateUnsafe(1, registry),
    countRateLimited: (reason: "key" | "address"): void => rateLimited(reason).updateUnsafe(1, registry),
    countKeyRequest: (keyId: string, admitted: boolean): void =>
      keyRequests(keyId)(admitted ? "admitted" : "rate_limited").updateUnsafe(1, registry),
    countCacheHit: (): void => cacheHits.updateUnsafe(1, registry),
    countCacheMiss: (): void => cacheMisses.updateUnsafe(1, registry),
    /** The Redis store's series, set only where Redis holds the limits. */
    setStoreUp: (up: boolean): void => storeUp.updateUnsafe(up ? 1 : 0, registry),
    countStoreFallbacks: (count: number): void => storeFallbacks.updateUnsafe(count, registry)
  }
})

export class Metrics extends Context.Service<Metrics>()("app/Metrics", { make }) {
  static readonly layer = Layer.effect(Metrics, Metrics.make)
}

export const PrometheusRoute = PrometheusMetrics.layerHttp({ path: METRICS_PATH })

/** On the public port, unless METRICS=false or METRICS_PORT moves it apart (then the path is an ordinary 404). */
export const MetricsRoute = Layer.unwrap(
  AppConfig.useSync(({ metrics, metricsPort }) =>
    metrics && metricsPort === undefined ? PrometheusRoute : Layer.empty
  )
)
