/**
 * Prometheus metrics from Effect's `Metric` module: the service updates them synchronously on the request path
 * (`updateUnsafe`, no Effect allocated) and `/metrics` renders every registered metric in the text format.
 */
import { Context, Effect, Layer, Metric } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { AppConfig } from "../Config.ts"
import { METRICS_PATH } from "./Routes.ts"

const NO_CONTEXT = Context.empty()
const BOUNDARIES = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/** One metric object per series: routes, statuses and reasons are few, so this stays small. */
const interned = <M>(make: (key: string) => M) => {
  const made = new Map<string, M>()
  return (key: string): M => {
    let found = made.get(key)
    if (found === undefined) made.set(key, (found = make(key)))
    return found
  }
}

const requests = interned((key) => {
  const [route = "", status = ""] = key.split(" ")
  return Metric.counter("http_requests_total", {
    description: "HTTP requests by route and status",
    attributes: { route, status },
    incremental: true
  })
})
const latency = interned((route) =>
  Metric.histogram("http_request_duration_seconds", {
    description: "Time from request to response, by route",
    attributes: { route },
    boundaries: BOUNDARIES
  })
)
const rateLimited = interned((reason) =>
  Metric.counter("rate_limited_total", {
    description: "Requests answered 429, by reason (key: the key's bucket; address: failed authentications)",
    attributes: { reason },
    incremental: true
  })
)
const authFailures = Metric.counter("auth_failures_total", {
  description: "Requests with no valid API key",
  incremental: true
})

/** Counters exported from the start at 0, so a scrape before the first event sees them and rate() has a baseline. */
const countFromZero = (metric: Metric.Metric<number, unknown>): void => metric.updateUnsafe(0, NO_CONTEXT)

countFromZero(authFailures)
for (const reason of ["key", "address"]) countFromZero(rateLimited(reason))

export const countAuthFailure = (): void => authFailures.updateUnsafe(1, NO_CONTEXT)
export const countRateLimited = (reason: "key" | "address"): void => rateLimited(reason).updateUnsafe(1, NO_CONTEXT)

/** One answered request, labelled by the route the router matched (`unmatched` outside the API). */
export const observe = (route: string, status: number, durationMs: number): void => {
  requests(`${route} ${status}`).updateUnsafe(1, NO_CONTEXT)
  latency(route).updateUnsafe(durationMs / 1000, NO_CONTEXT)
}

const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')
const series = (name: string, attributes: Metric.Metric.AttributeSet | undefined, extra = "") => {
  const parts = Object.entries(attributes ?? {}).map(([key, value]) => `${key}="${escape(value)}"`)
  if (extra !== "") parts.push(extra)
  return parts.length === 0 ? name : `${name}{${parts.join(",")}}`
}

const TYPES: Record<string, string> = { Counter: "counter", Gauge: "gauge", Histogram: "histogram" }

/** The text exposition format (version 0.0.4) of every metric registered in this process. */
export const render = (snapshots: ReadonlyArray<Metric.Metric.Snapshot>): string => {
  const byName = new Map<string, Array<Metric.Metric.Snapshot>>()
  for (const snapshot of snapshots) byName.set(snapshot.id, [...(byName.get(snapshot.id) ?? []), snapshot])
  const lines: Array<string> = []
  for (const [name, group] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const first = group[0]!
    if (first.description !== undefined) lines.push(`# HELP ${name} ${first.description}`)
    // A counter that may go down is a gauge to Prometheus.
    const monotonic = first.type === "Counter" && (first.state as Metric.CounterState<number>).incremental
    lines.push(`# TYPE ${name} ${first.type === "Counter" && !monotonic ? "gauge" : (TYPES[first.type] ?? "gauge")}`)
    for (const { attributes, state, type } of group) {
      if (type === "Counter") lines.push(`${series(name, attributes)} ${(state as Metric.CounterState<number>).count}`)
      else if (type === "Gauge") lines.push(`${series(name, attributes)} ${(state as Metric.GaugeState<number>).value}`)
      else if (type === "Histogram") {
        const histogram = state as Metric.HistogramState
        for (const [bound, count] of histogram.buckets) {
          if (Number.isFinite(bound)) lines.push(`${series(`${name}_bucket`, attributes, `le="${bound}"`)} ${count}`)
        }
        lines.push(`${series(`${name}_bucket`, attributes, 'le="+Inf"')} ${histogram.count}`)
        lines.push(`${series(`${name}_sum`, attributes)} ${histogram.sum}`)
        lines.push(`${series(`${name}_count`, attributes)} ${histogram.count}`)
      }
    }
  }
  return lines.join("\n") + "\n"
}

/** GET /metrics, unless METRICS=false (then the path is an ordinary 404). */
export const MetricsRoute = Layer.unwrap(
  AppConfig.useSync(({ metrics }) =>
    metrics
      ? HttpRouter.add(
          "GET",
          METRICS_PATH,
          Effect.sync(() =>
            HttpServerResponse.text(render(Metric.snapshotUnsafe(NO_CONTEXT)), {
              contentType: "text/plain; version=0.0.4; charset=utf-8"
            })
          )
        )
      : Layer.empty
  )
)
