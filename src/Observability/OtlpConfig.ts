/**
 * The standard OpenTelemetry variables, read by EnvVar.ts's rules. As the OpenTelemetry SDKs do (Effect's own
 * `layerFromConfig` does not), an endpoint alone turns every signal on and `OTEL_*_EXPORTER=none` turns one off.
 */
import { Config, Effect, Redacted, Schema, SchemaTransformation } from "effect"
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

type Signal = "traces" | "metrics" | "logs"

export interface OtlpSettings {
  /** Where each signal goes; a signal that is off has none. */
  readonly urls: Readonly<Partial<Record<Signal, string>>>
  /** Sent with every export (often a collector's token: never logged, never in an error). */
  readonly headers: Readonly<Record<string, string>>
  readonly protocol: "http/protobuf" | "http/json"
  readonly compression: "gzip" | "none"
  /** One export's deadline, after which it counts as failed. */
  readonly timeoutMs: number
  /** Milliseconds between exports, per signal. */
  readonly intervals: Readonly<Record<Signal, number>>
  /** Which traces are kept: `ratio` of new ones; with `parentBased`, an incoming `traceparent`'s decision. */
  readonly sampler: { readonly ratio: number; readonly parentBased: boolean }
  readonly serviceName: string
  readonly attributes: Readonly<Record<string, string>>
}

const SIGNALS = [
  ["traces", "TRACES", "OTEL_BSP_SCHEDULE_DELAY", 5_000],
  ["metrics", "METRICS", "OTEL_METRIC_EXPORT_INTERVAL", 60_000],
  ["logs", "LOGS", "OTEL_BLRP_SCHEDULE_DELAY", 1_000]
] as const

const PAIRS = "key=value pairs separated by commas"

/** `key=value,...` with percent-encoded values (W3C Baggage style), as the spec writes headers and attributes. */
const pairs = (name: string, raw: string | undefined): Effect.Effect<Record<string, string>, EnvVar.InvalidConfig> => {
  const found: Record<string, string> = {}
  for (const entry of (raw ?? "").split(",")) {
    if (entry.trim() === "") continue
    const equals = entry.indexOf("=")
    const key = entry.slice(0, equals).trim()
    let value: string | undefined
    try {
      value = equals > 0 ? decodeURIComponent(entry.slice(equals + 1).trim()) : undefined
    } catch {
      value = undefined
    }
    // the values may be secrets (a collector's token): the message names the variable, never its content
    if (key === "" || value === undefined) return Effect.fail(EnvVar.refuse(name, PAIRS))
    found[key] = value
  }
  return Effect.succeed(found)
}

const endpoint = (name: string) =>
  EnvVar.url(name, EnvVar.isHttp, "an http:// or https:// URL like http://collector:4318", false)

const millis = (name: string, fallback: number) =>
  EnvVar.read(
    name,
    Config.schema(EnvVar.Integer(1, Number.MAX_SAFE_INTEGER), name).pipe(Config.withDefault(fallback)),
    "a positive number of milliseconds",
    false
  )

/** Each entry otlp or none (empty entries ignored), in any case. */
const exporters = (upper: string) => {
  const name = `OTEL_${upper}_EXPORTER`
  const entry = Schema.String.pipe(
    Schema.decode(SchemaTransformation.trim()),
    Schema.decodeTo(Schema.Literals(["otlp", "none", ""]))
  )
  return EnvVar.read(
    name,
    EnvVar.caseless(name, Config.Array(entry, name)).pipe(Config.withDefault(["otlp"])),
    "otlp or none (this service exports over OTLP/HTTP only)",
    false
  )
}

const PROTOCOL = "OTEL_EXPORTER_OTLP_PROTOCOL"
// JSON by default, where the spec says protobuf: Effect's protobuf encoder costs more CPU a span (bench/README.md),
// and every OTLP/HTTP collector takes both
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

const sampler = Effect.gen(function* () {
  const name = (yield* EnvVar.oneOf("OTEL_TRACES_SAMPLER", SAMPLERS, false)) ?? "parentbased_always_on"
  const arg = yield* EnvVar.read(
    "OTEL_TRACES_SAMPLER_ARG",
    Config.schema(Ratio, "OTEL_TRACES_SAMPLER_ARG").pipe(Config.withDefault(1)),
    "a ratio from 0 to 1, like 0.25",
    false
  )
  return {
    ratio: name.endsWith("always_off") ? 0 : name.endsWith("traceidratio") ? arg : 1,
    parentBased: name.startsWith("parentbased")
  }
})

/** Undefined when nothing is to be exported; then the variables that only matter to an export are not read. */
export const otlpSettings: Effect.Effect<OtlpSettings | undefined, EnvVar.InvalidConfig> = Effect.gen(function* () {
  if ((yield* EnvVar.oneOf("OTEL_SDK_DISABLED", ["true", "false"], false)) === "true") return undefined
  const base = yield* endpoint("OTEL_EXPORTER_OTLP_ENDPOINT")
  const urls: Partial<Record<Signal, string>> = {}
  const intervals = {} as Record<Signal, number>
  for (const [signal, upper, intervalName, interval] of SIGNALS) {
    intervals[signal] = yield* millis(intervalName, interval)
    if (!(yield* exporters(upper)).includes("otlp")) continue
    const own = yield* endpoint(`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`)
    const shared = base === undefined ? undefined : new URL(`v1/${signal}`, base.href.replace(/\/?$/, "/"))
    const target = own ?? shared
    if (target !== undefined) urls[signal] = target.href
  }
  if (Object.keys(urls).length === 0) return undefined
  if ((yield* EnvVar.text(PROTOCOL))?.toLowerCase() === "grpc") {
    return yield* new EnvVar.InvalidConfig({
      message: `${PROTOCOL} grpc is not supported: use ${DEFAULT_PROTOCOL} (the default) or http/protobuf`
    })
  }
  const attributes = yield* pairs("OTEL_RESOURCE_ATTRIBUTES", yield* EnvVar.text("OTEL_RESOURCE_ATTRIBUTES"))
  const serviceName = (yield* EnvVar.text("OTEL_SERVICE_NAME")) ?? attributes["service.name"] ?? "tools-api"
  delete attributes["service.name"]
  const headers = yield* EnvVar.secret("OTEL_EXPORTER_OTLP_HEADERS")
  return {
    urls,
    headers: yield* pairs("OTEL_EXPORTER_OTLP_HEADERS", headers === undefined ? undefined : Redacted.value(headers)),
    protocol: (yield* EnvVar.oneOf(PROTOCOL, ["http/protobuf", "http/json"], false)) ?? DEFAULT_PROTOCOL,
    compression: (yield* EnvVar.oneOf("OTEL_EXPORTER_OTLP_COMPRESSION", ["gzip", "none"], false)) ?? "none",
    timeoutMs: yield* millis("OTEL_EXPORTER_OTLP_TIMEOUT", 10_000),
    intervals,
    sampler: yield* sampler,
    serviceName,
    attributes
  }
})
