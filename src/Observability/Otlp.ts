// OTLP/HTTP export by Effect's exporters when OTEL_* ask for it; without a trace exporter, tracing is off.
import { Effect, Layer, Option, References, Tracer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientError, HttpMiddleware } from "effect/http"
import { OtlpExporter, OtlpLogger, OtlpMetrics, OtlpSerialization, OtlpTracer } from "effect/observability"
import { AppConfig } from "../Config.ts"
import { LoggerLive } from "./Logger.ts"
import type { OtlpSettings } from "./OtlpConfig.ts"

/** Effect's exporters wait as long as fetch does: cut at the timeout, an export fails and a hung collector is paused. */
const clientWithDeadline = (timeoutMs: number) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
      HttpClient.transform(client, (response, request) =>
        Effect.timeoutOrElse(response, {
          duration: timeoutMs,
          orElse: () =>
            Effect.fail(
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({ request, description: `no answer in ${timeoutMs} ms` })
              })
            )
        })
      )
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))

// OTEL_TRACES_SAMPLER over Effect's tracer, which keeps every span: a new trace is kept at `ratio`; a child keeps its
// parent's decision, and so does a request whose `traceparent` decided when the sampler is parent-based.
const sampling = (tracer: Tracer.Tracer, { parentBased, ratio }: OtlpSettings["sampler"]): Tracer.Tracer =>
  ratio === 1 && parentBased
    ? tracer
    : Tracer.make({
        ...tracer,
        span: (options) => {
          const parent = Option.getOrUndefined(options.parent)
          const inherit = parent !== undefined && (parentBased || parent._tag === "Span")
          return tracer.span({ ...options, sampled: options.sampled && (inherit || Math.random() < ratio) })
        }
      })

/** The route a request target reaches (its API route, undefined outside the API), for span names. */
export type RouteOf = (url: string) => string | undefined

const exporters = (settings: OtlpSettings, routeOf: RouteOf) => {
  const { compression, headers, intervals, urls } = settings
  const resource = { serviceName: settings.serviceName, attributes: settings.attributes }
  const common = { resource, headers, compression, shutdownTimeout: Math.min(settings.timeoutMs, 1_000) }
  const layers: Array<Layer.Layer<never, never, HttpClient.HttpClient | OtlpSerialization.OtlpSerialization>> = []
  if (urls.traces !== undefined) {
    const options = { ...common, url: urls.traces, exportInterval: intervals.traces }
    const tracer = Effect.map(OtlpTracer.make(options), (otlp) => sampling(otlp, settings.sampler))
    layers.push(Layer.effect(Tracer.Tracer, tracer).pipe(Layer.provideMerge(OtlpExporter.layerFlusher)))
    // "POST /v1/tools/wage-estimator": bounded, as the route is; only the method outside the API (OTel's rule)
    layers.push(
      Layer.succeed(HttpMiddleware.SpanNameGenerator)((request) =>
        [request.method, routeOf(request.url)].filter(Boolean).join(" ")
      )
    )
  }
  if (urls.metrics !== undefined)
    layers.push(OtlpMetrics.layer({ ...common, url: urls.metrics, exportInterval: intervals.metrics }))
  if (urls.logs !== undefined) {
    // beside the service's own log (stdout), not instead of it
    const exportInterval = intervals.logs
    layers.push(OtlpLogger.layer({ ...common, url: urls.logs, exportInterval, mergeWithExisting: true }))
  }
  return Layer.mergeAll(Layer.empty, ...layers).pipe(
    Layer.provide(settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(clientWithDeadline(settings.timeoutMs))
  )
}

/** Spans nobody receives are not made: `withSpan` and the server's request span are no-ops without an exporter. */
const TracingOff = Layer.succeed(References.TracerEnabled, false)

export const OtlpLive = (routeOf: RouteOf) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const { otlp } = yield* AppConfig
      if (otlp === undefined) return TracingOff
      const exported = exporters(otlp, routeOf)
      return otlp.urls.traces === undefined ? Layer.merge(exported, TracingOff) : exported
    })
  )

export const ObservabilityLive = (routeOf: RouteOf) => OtlpLive(routeOf).pipe(Layer.provideMerge(LoggerLive))
