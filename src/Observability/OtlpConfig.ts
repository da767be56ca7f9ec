/**
 * The standard OpenTelemetry variables this service honours, checked at start like every other setting. As the
 * OpenTelemetry SDKs do, an endpoint alone turns every signal on (`OTEL_*_EXPORTER` defaults to `otlp`; Effect's
 * own `layerFromConfig` wants it spelled out) and `none` turns one off. No endpoint: `undefined`, nothing exported.
 */
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

type OtelEnv = Readonly<Partial<Record<(typeof OTEL_NAMES)[number], string>>>

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

const text = (env: OtelEnv, name: keyof OtelEnv): string | undefined => {
  const value = env[name]?.trim()
  return value === undefined || value === "" ? undefined : value
}

/** `key=value,...` with percent-encoded values (W3C Baggage style), as the spec writes headers and attributes. */
const pairs = (env: OtelEnv, name: keyof OtelEnv, fail: (message: string) => never): Record<string, string> => {
  const found: Record<string, string> = {}
  for (const entry of (text(env, name) ?? "").split(",")) {
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
    if (key === "" || value === undefined) return fail(`${name} must be key=value pairs separated by commas`)
    found[key] = value
  }
  return found
}

const url = (env: OtelEnv, name: keyof OtelEnv, fail: (message: string) => never): URL | undefined => {
  const raw = text(env, name)
  if (raw === undefined) return undefined
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined
  if (parsed === undefined || !["http:", "https:"].includes(parsed.protocol)) {
    return fail(`${name} must be an http:// or https:// URL like http://collector:4318`)
  }
  return parsed
}

const millis = (env: OtelEnv, name: keyof OtelEnv, fallback: number, fail: (message: string) => never) => {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  return Number.isSafeInteger(value) && value > 0 ? value : fail(`${name} must be a positive number of milliseconds`)
}

const oneOf = <const A extends string>(
  env: OtelEnv,
  name: keyof OtelEnv,
  values: ReadonlyArray<A>,
  fail: (message: string) => never
): A | undefined => {
  const raw = text(env, name)?.toLowerCase()
  if (raw === undefined) return undefined
  return values.find((value) => value === raw) ?? fail(`${name} must be one of ${values.join(", ")}`)
}

const SAMPLERS = [
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
  "always_on",
  "always_off",
  "traceidratio"
] as const

const sampler = (env: OtelEnv, fail: (message: string) => never) => {
  const name = oneOf(env, "OTEL_TRACES_SAMPLER", SAMPLERS, fail) ?? "parentbased_always_on"
  const raw = text(env, "OTEL_TRACES_SAMPLER_ARG")
  const arg = raw === undefined ? 1 : /^(0|1)?(\.\d+)?$/.test(raw) && raw !== "" ? Number(raw) : Number.NaN
  if (!(arg >= 0 && arg <= 1)) fail("OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, like 0.25")
  const ratio = name.endsWith("always_off") ? 0 : name.endsWith("traceidratio") ? arg : 1
  return { ratio, parentBased: name.startsWith("parentbased") }
}

/** The settings, or undefined when nothing is to be exported; a bad value throws `Invalid`, naming the variable. */
export const parseOtlp = (
  env: OtelEnv,
  Invalid: new (fields: { readonly message: string }) => Error
): OtlpSettings | undefined => {
  const fail = (message: string): never => {
    throw new Invalid({ message })
  }
  if (oneOf(env, "OTEL_SDK_DISABLED", ["true", "false"], fail) === "true") return undefined
  const base = url(env, "OTEL_EXPORTER_OTLP_ENDPOINT", fail)
  const urls: Partial<Record<Signal, string>> = {}
  const intervals = {} as Record<Signal, number>
  for (const [signal, upper, intervalName, interval] of SIGNALS) {
    intervals[signal] = millis(env, intervalName, interval, fail)
    const exporters = (text(env, `OTEL_${upper}_EXPORTER`) ?? "otlp").toLowerCase().split(",")
    const wanted = exporters.map((exporter) => exporter.trim()).filter((exporter) => exporter !== "")
    if (wanted.some((exporter) => exporter !== "otlp" && exporter !== "none")) {
      fail(`OTEL_${upper}_EXPORTER must be otlp or none (this service exports over OTLP/HTTP only)`)
    }
    if (!wanted.includes("otlp")) continue
    const own = url(env, `OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`, fail)
    const shared = base === undefined ? undefined : new URL(`v1/${signal}`, base.href.replace(/\/?$/, "/"))
    const target = own ?? shared
    if (target !== undefined) urls[signal] = target.href
  }
  if (Object.keys(urls).length === 0) return undefined
  if (text(env, "OTEL_EXPORTER_OTLP_PROTOCOL")?.toLowerCase() === "grpc") {
    fail("OTEL_EXPORTER_OTLP_PROTOCOL grpc is not supported: use http/protobuf (the default) or http/json")
  }
  const attributes = pairs(env, "OTEL_RESOURCE_ATTRIBUTES", fail)
  const serviceName = text(env, "OTEL_SERVICE_NAME") ?? attributes["service.name"] ?? "tools-api"
  delete attributes["service.name"]
  return {
    urls,
    headers: pairs(env, "OTEL_EXPORTER_OTLP_HEADERS", fail),
    // JSON by default, where the spec says protobuf: Effect's protobuf encoder took 2.5 times the CPU a span
    // (bench/README.md), and every OTLP/HTTP collector takes both
    protocol: oneOf(env, "OTEL_EXPORTER_OTLP_PROTOCOL", ["http/protobuf", "http/json"], fail) ?? "http/json",
    compression: oneOf(env, "OTEL_EXPORTER_OTLP_COMPRESSION", ["gzip", "none"], fail) ?? "none",
    timeoutMs: millis(env, "OTEL_EXPORTER_OTLP_TIMEOUT", 10_000, fail),
    intervals,
    sampler: sampler(env, fail),
    serviceName,
    attributes
  }
}
