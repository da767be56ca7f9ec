/**
 * Prometheus metrics from Effect's `Metric` module: the service updates them synchronously on the request path
 * (`unsafeUpdate`, no Effect allocated) and `/metrics` renders every registered metric in the text format.
 */
import type { HttpServerRequest } from "@effect/platform"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Layer, Metric, MetricBoundaries, MetricLabel, MetricState } from "effect"
import type { MetricPair } from "effect"
import { boolean } from "../Config.ts"
import { pathOf } from "./Edge.ts"
import { routeOf } from "./Routes.ts"

export const requests = Metric.counter("http_requests_total", { description: "HTTP requests by route and status" })
export const latency = Metric.histogram(
  "http_request_duration_seconds",
  MetricBoundaries.fromIterable([0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]),
  "Time from request to response, by route"
)
export const rateLimited = Metric.counter("rate_limited_total", {
  description: "Requests answered 429, by reason (key: the key's bucket; address: failed authentications)"
})
export const authFailures = Metric.counter("auth_failures_total", { description: "Requests with no valid API key" })

// Counters exported from the start at 0, so a scrape before the first event sees them and rate() has a baseline.
authFailures.unsafeUpdate(0, [])
for (const reason of ["key", "address"]) rateLimited.unsafeUpdate(0, [MetricLabel.make("reason", reason)])

const labels = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
/** Label arrays are interned: routes and statuses are few, so this stays small. */
const labelsFor = (route: string, status?: number): ReadonlyArray<MetricLabel.MetricLabel> => {
  const key = `${route} ${status ?? ""}`
  let found = labels.get(key)
  if (found === undefined) {
    found =
      status === undefined
        ? [MetricLabel.make("route", route)]
        : [MetricLabel.make("route", route), MetricLabel.make("status", String(status))]
    labels.set(key, found)
  }
  return found
}

export const observe = (request: HttpServerRequest.HttpServerRequest, status: number, durationMs: number): void => {
  const route = routeOf(pathOf(request.url)) ?? "unmatched"
  requests.unsafeUpdate(1, labelsFor(route, status))
  latency.unsafeUpdate(durationMs / 1000, labelsFor(route))
}

const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')
const series = (name: string, tags: ReadonlyArray<MetricLabel.MetricLabel>, extra = "") => {
  const parts = tags.map((tag) => `${tag.key}="${escape(tag.value)}"`)
  if (extra !== "") parts.push(extra)
  return parts.length === 0 ? name : `${name}{${parts.join(",")}}`
}

/** The text exposition format (version 0.0.4) of every metric registered in this process. */
export const render = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const byName = new Map<string, Array<MetricPair.MetricPair.Untyped>>()
  for (const pair of pairs) {
    const group = byName.get(pair.metricKey.name) ?? []
    group.push(pair)
    byName.set(pair.metricKey.name, group)
  }
  const lines: Array<string> = []
  for (const [name, group] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const description = group[0]?.metricKey.description
    if (description !== undefined && description._tag === "Some") lines.push(`# HELP ${name} ${description.value}`)
    const first = group[0]
    // Effect's counters may go down (effect_fiber_active does): only monotonic ones are Prometheus counters.
    const monotonic =
      name.endsWith("_total") || (first?.metricKey.keyType as { incremental?: boolean } | undefined)?.incremental
    const type = MetricState.isCounterState(first?.metricState)
      ? monotonic === true
        ? "counter"
        : "gauge"
      : MetricState.isHistogramState(first?.metricState)
        ? "histogram"
        : "gauge"
    lines.push(`# TYPE ${name} ${type}`)
    for (const { metricKey, metricState: state } of group) {
      const tags = metricKey.tags
      if (MetricState.isCounterState(state) || MetricState.isGaugeState(state)) {
        lines.push(`${series(name, tags)} ${Number(MetricState.isCounterState(state) ? state.count : state.value)}`)
      } else if (MetricState.isHistogramState(state)) {
        for (const [bound, count] of state.buckets) {
          const le = Number.isFinite(bound) ? String(bound) : "+Inf"
          if (le !== "+Inf") lines.push(`${series(`${name}_bucket`, tags, `le="${le}"`)} ${count}`)
        }
        lines.push(`${series(`${name}_bucket`, tags, 'le="+Inf"')} ${state.count}`)
        lines.push(`${series(`${name}_sum`, tags)} ${state.sum}`, `${series(`${name}_count`, tags)} ${state.count}`)
      }
    }
  }
  return lines.join("\n") + "\n"
}

/** GET /metrics, unless METRICS=false (then the path is an ordinary 404). */
export const MetricsRoute = Layer.unwrapEffect(
  Effect.map(boolean("METRICS", true), (enabled) =>
    enabled
      ? HttpApiBuilder.Router.use((router) =>
          router.get(
            "/metrics",
            Effect.map(Metric.snapshot, (pairs) =>
              HttpServerResponse.text(render(pairs), { contentType: "text/plain; version=0.0.4; charset=utf-8" })
            )
          )
        )
      : Layer.empty
  )
)
