/** Every environment variable, read through Effect's `Config` (EnvVar.ts's rules), from the provider in context. */
import { ConfigProvider, Context, Effect, Layer, Schema } from "effect"
import { OTEL_NAMES, otlpSettings } from "./Observability/OtlpConfig.ts"
import * as EnvVar from "./EnvVar.ts"
import { type InvalidConfig, invalid, refuse } from "./EnvVar.ts"

export { InvalidConfig } from "./EnvVar.ts"

/** Set by the primary for each worker: its index (1..N), and the key it generated if none is configured. */
export const WORKER_ENV = "TOOLS_API_WORKER"
export const GENERATED_KEY_ENV = "TOOLS_API_GENERATED_KEY"

/** Every setting and what it means, for `--help`; the OTEL_* ones are OtlpConfig.ts's. */
export const SETTINGS = {
  PORT: "listen port (default 3000; 0 = any free port)",
  HOST: "listen address (default 0.0.0.0)",
  API_KEYS: "comma-separated API keys",
  API_KEYS_FILE: "file of API keys, one a line (sha256:<hex> for a digest); SIGHUP re-reads it",
  RATE_LIMIT_PER_MINUTE: "requests a key may make a minute (default 100)",
  AUTH_FAILURES_PER_MINUTE: "failed authentications an address may make a minute (default 20)",
  MAX_BODY_BYTES: "request body limit (default 16384)",
  LOG_LEVEL: "debug, info (default), warning, error or none",
  LOG_FORMAT: "json (default) or pretty",
  METRICS: "serve /metrics (default true)",
  METRICS_PORT: "serve /metrics on this port only, not the public one (default: on the public one)",
  METRICS_HOST: "METRICS_PORT's listen address (default HOST's)",
  TRUST_PROXY: "take the client address from X-Forwarded-For (default false)",
  UA_CACHE_SIZE: "user-agent parses kept in memory (default 10000; 0 = none); offline too",
  IDLE_TIMEOUT_SECONDS: "seconds an idle connection stays open (default 30)",
  REDIS_URL: "redis://host:port: keep rate limits in Redis, shared by every instance",
  WORKERS: "processes sharing the port (default 1; more needs REDIS_URL)",
  CORS_ORIGINS: "comma-separated origins allowed from a browser, or *",
  PUBLIC_URL: "the base URL clients use, for the OpenAPI document"
}

type Name = keyof typeof SETTINGS | (typeof OTEL_NAMES)[number] | typeof WORKER_ENV | typeof GENERATED_KEY_ENV
export type Env = Readonly<Partial<Record<Name, string>>>

/** `redis://` or `rediss://` (TLS) with a host; the message quotes none of it, as it may hold a password. */
export const parseRedisUrl = (raw: string): URL | string => {
  const url = URL.parse(raw.trim())
  if (url === null) return "is not a URL"
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") return "must start with redis:// or rediss://"
  if (url.hostname === "") return "has no host"
  if (!/^\/?\d*$/.test(url.pathname)) return "may only name a database number after the host"
  return url
}

/** Browser origins allowed to call the API: every origin, these, or none (unset). */
export type CorsOrigins = "*" | ReadonlySet<string> | undefined

const corsOrigins: Effect.Effect<CorsOrigins, InvalidConfig> = Effect.gen(function* () {
  const raw = (yield* EnvVar.text("CORS_ORIGINS")) ?? ""
  const entries = raw.split(",").flatMap((entry) => entry.trim() || [])
  if (entries.includes("*")) {
    return entries.length === 1 ? "*" : yield* refuse("CORS_ORIGINS", "either * or a list of origins, not both", raw)
  }
  const origins = new Set<string>()
  for (const entry of entries) {
    const url = URL.parse(entry)
    // exactly an origin (a trailing / allowed), in any case
    const isOrigin =
      url !== null && url.origin !== "null" && `${url.origin}/`.startsWith(entry.replace(/\/$/, "").toLowerCase())
    if (!isOrigin)
      return yield* refuse("CORS_ORIGINS", "* or comma-separated origins like https://app.example.com", entry)
    origins.add(url.origin)
  }
  return origins.size === 0 ? undefined : origins
})

const cacheSize = EnvVar.integer("UA_CACHE_SIZE", 10_000, 0, 10_000_000)

/** UA_CACHE_SIZE alone, for the parse cache: the command line reads it and no server setting. */
export const uaCacheSize: Effect.Effect<number, InvalidConfig> = EnvVar.trimmedValues(cacheSize)

/** Read in this order, the first bad one reported. */
const rest = Effect.all({
  port: EnvVar.integer("PORT", 3000, 0, 65_535),
  host: Effect.map(EnvVar.text("HOST"), (host) => host ?? "0.0.0.0"),
  apiKeys: EnvVar.secret("API_KEYS"),
  apiKeysFile: EnvVar.text("API_KEYS_FILE"),
  ratePerMinute: EnvVar.integer("RATE_LIMIT_PER_MINUTE", 100, 1, 1_000_000_000),
  authFailuresPerMinute: EnvVar.integer("AUTH_FAILURES_PER_MINUTE", 20, 1, 1_000_000_000),
  maxBodyBytes: EnvVar.integer("MAX_BODY_BYTES", 16_384, 1, 1 << 30),
  logLevel: Effect.map(EnvVar.oneOf("LOG_LEVEL", ["debug", "info", "warning", "error", "none"]), (l) => l ?? "info"),
  logFormat: Effect.map(EnvVar.oneOf("LOG_FORMAT", ["json", "pretty"]), (format) => format ?? "json"),
  metrics: EnvVar.flag("METRICS", true),
  // /metrics on a listener of its own: its port (unset: on the public one) and address (unset: HOST's)
  metricsPort: EnvVar.integer("METRICS_PORT", undefined, 0, 65_535),
  metricsHost: EnvVar.text("METRICS_HOST"),
  trustProxy: EnvVar.flag("TRUST_PROXY", false),
  // checked at start with the rest; the parse cache reads it itself (`uaCacheSize`)
  uaCacheSize: cacheSize,
  // Bun allows 1 to 255
  idleTimeoutSeconds: EnvVar.integer("IDLE_TIMEOUT_SECONDS", 30, 1, 255),
  corsOrigins,
  publicUrl: Effect.map(
    EnvVar.decoded(
      "PUBLIC_URL",
      EnvVar.HttpUrl.check(Schema.makeFilter((url) => url.search === "" && url.hash === "")),
      undefined,
      "an http:// or https:// URL like https://api.example.com"
    ),
    (url) => url?.href.replace(/\/$/, "")
  ),
  otlp: otlpSettings,
  workerIndex: EnvVar.text(WORKER_ENV),
  generatedKey: EnvVar.secret(GENERATED_KEY_ENV)
})

const settings = Effect.gen(function* () {
  const count = yield* EnvVar.integer("WORKERS", 1, 1, 256)
  const rawRedis = yield* EnvVar.text("REDIS_URL")
  const redis = rawRedis === undefined ? undefined : parseRedisUrl(rawRedis)
  if (typeof redis === "string") {
    return yield* invalid(`REDIS_URL ${redis} (expected redis://[user:password@]host[:port][/db])`)
  }
  if (count > 1 && redis === undefined) {
    return yield* invalid("WORKERS above 1 requires REDIS_URL, so the processes share one rate limit")
  }
  const read = yield* rest
  // Each worker counts its own: on one port, a scrape would see one worker's counts as if they were all.
  if (count > 1 && read.metricsPort !== undefined) {
    return yield* invalid("METRICS_PORT requires WORKERS=1, as each worker keeps its own metrics")
  }
  if (read.metricsPort === undefined && read.metricsHost !== undefined) {
    return yield* invalid("METRICS_HOST is the address of METRICS_PORT's listener: set both")
  }
  return { ...read, redisUrl: redis, workers: count }
}).pipe(EnvVar.trimmedValues)

export class AppConfig extends Context.Service<AppConfig>()("app/AppConfig", { make: settings }) {
  /** From the `ConfigProvider` in context: the environment unless a test gives another. */
  static readonly layer: Layer.Layer<AppConfig, InvalidConfig> = Layer.effect(AppConfig, AppConfig.make)

  /** From these variables instead of the environment. */
  static readonly fromEnv = (env: Env): Layer.Layer<AppConfig, InvalidConfig> =>
    AppConfig.layer.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))
}
