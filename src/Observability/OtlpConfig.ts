// The standard OpenTelemetry variables, read by EnvVar.ts's rules. As the OpenTelemetry SDKs do (Effect's own
// `layerFromConfig` does not), an endpoint alone turns every signal on and `OTEL_*_EXPORTER=none` turns one off.
import { Config, Effect, Record, Schema, SchemaTransformation } from "effect"
import * as EnvVar from "../EnvVar.ts"

export const OTEL_NAMES = [
  "OTEL_SDK_DISABLED",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
  "OTEL_TRACES_EXPORTER",
  "OTEL_METRICS_EXPORTER",
  "OTEL_LOGS_EXPORTER",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_COMPRESSION",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "OTEL_SERVICE_NAME",
  "OTEL_RESOURCE_ATTRIBUTES",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_METRIC_EXPORT_INTERVAL",
  "OTEL_BLRP_SCHEDULE_DELAY"
] as const

const SIGNALS = ["traces", "metrics", "logs"] as const

/** `key=value,...` with percent-encoded values (W3C Baggage style); never quoted, as a header may hold a token. */
const pairs = (name: string) => {
  const isPairs = (raw: string) => raw.split(",").every((entry) => /^\s*$|^\s*[^\s=][^=]*=/.test(entry))
  const codec = Schema.String.check(Schema.makeFilter(isPairs)).pipe(
    Schema.decodeTo(
      Schema.Record(Schema.String, Schema.StringFromUriComponent),
      SchemaTransformation.splitKeyValue({ trim: true, keepEmptyValues: true })
    )
  )
  return EnvVar.decoded(name, codec, Record.empty<string, string>(), "key=value pairs separated by commas", false)
}

// never quoted in an error: a URL may carry a password
const endpoint = (name: string) =>
  EnvVar.decoded(name, EnvVar.HttpUrl, undefined, "an http:// or https:// URL like http://collector:4318", false)

const millis = (name: string, fallback: number) =>
  EnvVar.decoded(name, EnvVar.Integer(1, Number.MAX_SAFE_INTEGER), fallback, "a positive number of milliseconds", false)

const exporter = Schema.Trim.pipe(Schema.decodeTo(Schema.Literals(["otlp", "none", ""])))
const exporters = (name: string) =>
  EnvVar.read(
    name,
    EnvVar.caseless(name, Config.Array(exporter, name)).pipe(Config.withDefault(["otlp"])),
    "otlp or none (this service exports over OTLP/HTTP only)",
    false
  )

const PROTOCOL = "OTEL_EXPORTER_OTLP_PROTOCOL"
// JSON by default (the spec says protobuf): Effect's protobuf encoder costs more CPU, and every collector takes both.
const DEFAULT_PROTOCOL = "http/json"

const SAMPLERS = [
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
  "always_on",
  "always_off",
  "traceidratio"
] as const

/** 0 to 1 in plain decimal (`0.25`, `.5`, `1`). */
const Ratio = EnvVar.numeral(/^(0|1)?(\.\d+)?$/, Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 })))

/** Which traces are kept: `ratio` of new ones; with `parentBased`, an incoming `traceparent`'s decision. */
const sampler = Effect.gen(function* () {
  const name = (yield* EnvVar.oneOf("OTEL_TRACES_SAMPLER", SAMPLERS, false)) ?? "parentbased_always_on"
  const arg = yield* EnvVar.decoded("OTEL_TRACES_SAMPLER_ARG", Ratio, 1, "a ratio from 0 to 1, like 0.25", false)
  return {
    ratio: name.endsWith("always_off") ? 0 : name.endsWith("traceidratio") ? arg : 1,
    parentBased: name.startsWith("parentbased")
  }
})

/** Undefined when nothing is to be exported; then the variables that only matter to an export are not read. */
export const otlpSettings = Effect.gen(function* () {
  if ((yield* EnvVar.oneOf("OTEL_SDK_DISABLED", ["true", "false"], false)) === "true") return undefined
  const base = yield* endpoint("OTEL_EXPORTER_OTLP_ENDPOINT")
  const intervals = {
    traces: yield* millis("OTEL_BSP_SCHEDULE_DELAY", 5_000),
    metrics: yield* millis("OTEL_METRIC_EXPORT_INTERVAL", 60_000),
    logs: yield* millis("OTEL_BLRP_SCHEDULE_DELAY", 1_000)
  }
  const urls: Partial<Record<(typeof SIGNALS)[number], string>> = {}
  for (const signal of SIGNALS) {
    const upper = signal.toUpperCase()
    if (!(yield* exporters(`OTEL_${upper}_EXPORTER`)).includes("otlp")) continue
    const shared = base && new URL(`v1/${signal}`, base.href.replace(/\/?$/, "/"))
    const target = (yield* endpoint(`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`)) ?? shared
    if (target !== undefined) urls[signal] = target.href
  }
  if (Object.keys(urls).length === 0) return undefined
  if ((yield* EnvVar.text(PROTOCOL))?.toLowerCase() === "grpc") {
    return yield* EnvVar.invalid(
      `${PROTOCOL} grpc is not supported: use ${DEFAULT_PROTOCOL} (the default) or http/protobuf`
    )
  }
  const { "service.name": named, ...attributes } = yield* pairs("OTEL_RESOURCE_ATTRIBUTES")
  return {
    urls,
    serviceName: (yield* EnvVar.text("OTEL_SERVICE_NAME")) ?? named ?? "tools-api",
    attributes,
    // sent with every export (often a collector's token): never logged, never in an error
    headers: yield* pairs("OTEL_EXPORTER_OTLP_HEADERS"),
    protocol: (yield* EnvVar.oneOf(PROTOCOL, ["http/protobuf", "http/json"], false)) ?? DEFAULT_PROTOCOL,
    compression: (yield* EnvVar.oneOf("OTEL_EXPORTER_OTLP_COMPRESSION", ["gzip", "none"], false)) ?? "none",
    timeoutMs: yield* millis("OTEL_EXPORTER_OTLP_TIMEOUT", 10_000),
    intervals,
    sampler: yield* sampler
  }
})

export type OtlpSettings = NonNullable<Effect.Success<typeof otlpSettings>>
