/**
 * Every environment variable, read once through `Config` and checked at start. A bad value fails the start with
 * `InvalidConfig`, one sentence naming the variable, which `main.ts` prints before exit 1.
 */
import { Config, Context, Data, Effect, Layer } from "effect"
import { OTEL_NAMES, parseOtlp } from "./Observability/OtlpConfig.ts"

export class InvalidConfig extends Data.TaggedError("InvalidConfig")<{ readonly message: string }> {}

const LOG_LEVELS = ["debug", "info", "warning", "error", "none"] as const
const LOG_FORMATS = ["json", "pretty"] as const

/** Set by the primary in each worker's environment (1..N), with the key it generated if none is configured. */
export const WORKER_ENV = "TOOLS_API_WORKER"
export const GENERATED_KEY_ENV = "TOOLS_API_GENERATED_KEY"

export const NAMES = [
  "PORT",
  "HOST",
  "API_KEYS",
  "API_KEYS_FILE",
  "RATE_LIMIT_PER_MINUTE",
  "AUTH_FAILURES_PER_MINUTE",
  "MAX_BODY_BYTES",
  "LOG_LEVEL",
  "LOG_FORMAT",
  "METRICS",
  "TRUST_PROXY",
  "UA_CACHE_SIZE",
  "IDLE_TIMEOUT_SECONDS",
  "REDIS_URL",
  "WORKERS",
  "CORS_ORIGINS",
  "PUBLIC_URL",
  ...OTEL_NAMES,
  WORKER_ENV,
  GENERATED_KEY_ENV
] as const

export type Env = Readonly<Partial<Record<(typeof NAMES)[number], string>>>

const invalid = (name: string, expected: string, got: string): never => {
  throw new InvalidConfig({ message: `${name} must be ${expected}, got ${JSON.stringify(got)}` })
}

/** The value, or undefined when absent or blank (blank means the default). */
const text = (env: Env, name: keyof Env): string | undefined => {
  const value = env[name]?.trim()
  return value === undefined || value === "" ? undefined : value
}

const integer = (env: Env, name: keyof Env, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN
  return Number.isSafeInteger(value) && value >= min && value <= max
    ? value
    : invalid(name, `an integer from ${min} to ${max}`, env[name]!)
}

const truthy = new Set(["true", "1", "yes", "on"])
const falsy = new Set(["false", "0", "no", "off"])

const boolean = (env: Env, name: keyof Env, fallback: boolean) => {
  const raw = text(env, name)?.toLowerCase()
  if (raw === undefined) return fallback
  if (truthy.has(raw)) return true
  return falsy.has(raw) ? false : invalid(name, "true or false", env[name]!)
}

const oneOf = <const A extends string>(env: Env, name: keyof Env, values: ReadonlyArray<A>, fallback: A): A => {
  const raw = text(env, name)?.toLowerCase()
  if (raw === undefined) return fallback
  return values.find((value) => value === raw) ?? invalid(name, `one of ${values.join(", ")}`, env[name]!)
}

/** `redis://` or `rediss://` (TLS) with a host; the message quotes none of it, as it may hold a password. */
export const parseRedisUrl = (raw: string): URL | string => {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return "is not a URL"
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") return "must start with redis:// or rediss://"
  if (url.hostname === "") return "has no host"
  if (!/^\/?\d*$/.test(url.pathname)) return "may only name a database number after the host"
  return url
}

const redisUrl = (env: Env): URL | undefined => {
  const raw = text(env, "REDIS_URL")
  if (raw === undefined) return undefined
  const url = parseRedisUrl(raw)
  if (typeof url !== "string") return url
  throw new InvalidConfig({ message: `REDIS_URL ${url} (expected redis://[user:password@]host[:port][/db])` })
}

/** Browser origins allowed to call the API: every origin (`*`), these, or none (unset). */
export type CorsOrigins = "*" | ReadonlySet<string> | undefined

const corsOrigins = (env: Env): CorsOrigins => {
  const raw = text(env, "CORS_ORIGINS")
  if (raw === undefined) return undefined
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  if (entries.includes("*")) {
    return entries.length === 1 ? "*" : invalid("CORS_ORIGINS", "either * or a list of origins, not both", raw)
  }
  const origins = new Set<string>()
  for (const entry of entries) {
    let origin: string | undefined
    try {
      const url = new URL(entry)
      origin =
        url.origin !== "null" && `${url.origin}/`.startsWith(entry.replace(/\/$/, "").toLowerCase())
          ? url.origin
          : undefined
    } catch {
      origin = undefined
    }
    if (origin === undefined)
      invalid("CORS_ORIGINS", "* or comma-separated origins like https://app.example.com", entry)
    origins.add(origin!)
  }
  return origins.size === 0 ? undefined : origins
}

/** The base URL clients use, for the OpenAPI document's `servers`: http(s), no query or fragment. */
const publicUrl = (env: Env): string | undefined => {
  const raw = text(env, "PUBLIC_URL")
  if (raw === undefined) return undefined
  let url: URL | undefined
  try {
    url = new URL(raw)
  } catch {
    url = undefined
  }
  if (url === undefined || !["http:", "https:"].includes(url.protocol) || url.search !== "" || url.hash !== "") {
    return invalid("PUBLIC_URL", "an http:// or https:// URL like https://api.example.com", raw)
  }
  return url.href.replace(/\/$/, "")
}

/** The service's settings, checked; `parse` throws InvalidConfig for the first bad one. */
export const parse = (env: Env) => {
  const workers = integer(env, "WORKERS", 1, 1, 256)
  const redis = redisUrl(env)
  if (workers > 1 && redis === undefined) {
    throw new InvalidConfig({ message: "WORKERS above 1 requires REDIS_URL, so the processes share one rate limit" })
  }
  return {
    port: integer(env, "PORT", 3000, 0, 65_535),
    host: text(env, "HOST") ?? "0.0.0.0",
    apiKeys: text(env, "API_KEYS"),
    apiKeysFile: text(env, "API_KEYS_FILE"),
    ratePerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 100, 1, 1_000_000_000),
    authFailuresPerMinute: integer(env, "AUTH_FAILURES_PER_MINUTE", 20, 1, 1_000_000_000),
    maxBodyBytes: integer(env, "MAX_BODY_BYTES", 16_384, 1, 1 << 30),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
    logFormat: oneOf(env, "LOG_FORMAT", LOG_FORMATS, "json"),
    metrics: boolean(env, "METRICS", true),
    trustProxy: boolean(env, "TRUST_PROXY", false),
    uaCacheSize: integer(env, "UA_CACHE_SIZE", 10_000, 0, 10_000_000),
    /** Seconds a connection may sit idle before Bun closes it; Bun allows 1 to 255. */
    idleTimeoutSeconds: integer(env, "IDLE_TIMEOUT_SECONDS", 30, 1, 255),
    redisUrl: redis,
    corsOrigins: corsOrigins(env),
    publicUrl: publicUrl(env),
    workers,
    otlp: parseOtlp(env, InvalidConfig),
    /** 1..N in a worker started by the primary. */
    workerIndex: text(env, WORKER_ENV),
    generatedKey: text(env, GENERATED_KEY_ENV)
  }
}

export type Settings = ReturnType<typeof parse>

/** Reads every variable through the current ConfigProvider (the environment, or a map in tests). */
const read = Effect.gen(function* () {
  const env: Record<string, string | undefined> = {}
  for (const name of NAMES) {
    const value = yield* Config.option(Config.String(name))
    env[name] = value._tag === "Some" ? value.value : undefined
  }
  return env as Env
}).pipe(Effect.orDie)

export class AppConfig extends Context.Service<AppConfig, Settings>()("app/AppConfig") {
  static readonly layer: Layer.Layer<AppConfig, InvalidConfig> = Layer.effect(
    AppConfig,
    Effect.flatMap(read, (env) => Effect.try({ try: () => parse(env), catch: (error) => error as InvalidConfig }))
  )

  /** Settings from these variables, as the environment would give them; for tests. */
  static readonly fromEnv = (env: Env): Layer.Layer<AppConfig> => Layer.sync(AppConfig, () => parse(env))
}
