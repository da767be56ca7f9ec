/**
 * The real HttpApi application in process (`HttpRouter.toWebHandler`), with the real edge middleware and real
 * services, configured through a map of variables instead of the environment.
 */
import { Clock, ConfigProvider, Console, Context, Effect, Exit, Layer, Metric, References, Scope, Tracer } from "effect"
import type { LogLevel } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { AppConfig, type Env } from "../../src/Config.ts"
import { ToolsApi } from "../../src/Api.ts"
import { HttpLive, makeHttp } from "../../src/Http.ts"
import { LoggerLive } from "../../src/Observability/Logger.ts"
import { OtlpLive } from "../../src/Observability/Otlp.ts"
import { ApiRoutes, pathOf } from "../../src/Http/Routes.ts"
import { Metrics } from "../../src/Observability/Metrics.ts"
import { ApiKeyStore } from "../../src/Services/ApiKeyStore.ts"
import { Drain } from "../../src/Services/Drain.ts"
import { makeMemoryStore } from "../../src/RateLimit/MemoryStore.ts"
import { RateLimiter } from "../../src/RateLimit/Limiter.ts"
import { UserAgentHandlers } from "../../src/Tools/UserAgent/index.ts"
import type { UserAgents } from "../../src/Tools/UserAgent/Service.ts"
import type { Estimator } from "../../src/Tools/Wage/Estimator.ts"
import { WageHandlers } from "../../src/Tools/Wage/index.ts"

export const KEY = "test-key-0123456789abcdef"
export const OTHER_KEY = "test-key-other-9876543210"

export interface TestAppOptions {
  readonly keys?: ReadonlyArray<string>
  readonly perMinute?: number
  readonly authFailuresPerMinute?: number
  /** The rate limiter's cap on each table (keys, addresses). */
  readonly maxEntries?: number
  readonly env?: Env
  /** The application and the routes of its API (default: the service's own), e.g. with a toy tool added. */
  readonly served?: { readonly app: typeof HttpLive; readonly routes: Layer.Layer<ApiRoutes, never, AppConfig> }
  /** Replace the tools' services, e.g. with one that dies, to reach the 500 path. */
  readonly services?: Layer.Layer<UserAgents | Estimator>
  /** Logs are off unless a test asks for them. */
  readonly logLevel?: LogLevel.LogLevel
  /** The service's own logger (LOG_LEVEL, LOG_FORMAT from `env`) writes its lines here instead. */
  readonly logs?: Array<string>
  /** The clock every request reads (the rate limit's refills), e.g. `stoppedClock()`; the real one by default. */
  readonly clock?: Clock.Clock
  /** The tracer every request's spans go to, unless OTLP export brings its own. */
  readonly tracer?: Tracer.Tracer
}

/** A clock whose time of day stands still until `advance` moves it; sleeps and monotonic time stay real. */
export const stoppedClock = (start = Date.now()) => {
  const real = Effect.runSync(Effect.clockWith(Effect.succeed))
  let now = start
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: () => now,
    currentTimeMillis: Effect.sync(() => now),
    currentTimeNanosUnsafe: () => BigInt(now) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(now) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  return { clock, advance: (ms: number) => void (now += ms) }
}

/** The service's logger, its console keeping every line it is given. */
const capturedLogs = (lines: Array<string>) =>
  Layer.merge(
    LoggerLive,
    Layer.succeed(Console.Console, { ...console, log: (line: unknown) => void lines.push(String(line)) })
  )

export const makeTestApp = (options: TestAppOptions = {}) => {
  // the drain's requests live as long as the app: its scope closes after the app's
  const drainScope = Scope.makeUnsafe()
  const drain = Context.get(Effect.runSync(Layer.buildWithScope(Drain.layer, drainScope)), Drain)
  const buckets = makeMemoryStore(options.maxEntries)
  const limiter = Effect.runSync(
    Effect.provide(
      RateLimiter.useSync((limiter) => limiter),
      RateLimiter.Test(
        { perMinute: options.perMinute ?? 100, authFailuresPerMinute: options.authFailuresPerMinute ?? 20 },
        buckets
      )
    )
  )
  // the variables, for AppConfig and for the layers that read their own (the parse cache)
  const config = AppConfig.layer.pipe(
    Layer.provideMerge(ConfigProvider.layer(ConfigProvider.fromEnvRecord(options.env ?? {})))
  )
  const services = Layer.mergeAll(
    ApiKeyStore.fromKeys(options.keys ?? [KEY, OTHER_KEY]),
    Layer.succeed(RateLimiter, limiter),
    Layer.succeed(Drain, drain),
    Metrics.layer
  ).pipe(Layer.provideMerge(config))
  const app =
    options.served?.app ??
    (options.services === undefined
      ? HttpLive
      : makeHttp(ToolsApi, Layer.mergeAll(UserAgentHandlers, WageHandlers).pipe(Layer.provide(options.services))))
  const layer = app.pipe(
    Layer.provide(services),
    Layer.provide(HttpServer.layerServices),
    // Merged, not only provided: the handler runs each request in the context the layer outputs.
    Layer.provideMerge(
      Layer.unwrap(ApiRoutes.useSync((routes) => OtlpLive((url) => routes.routeOf(pathOf(url))))).pipe(
        Layer.provideMerge(options.served?.routes ?? ApiRoutes.layer(ToolsApi)),
        Layer.provide(config)
      )
    ),
    Layer.provideMerge(options.clock === undefined ? Layer.empty : Layer.succeed(Clock.Clock, options.clock)),
    Layer.provideMerge(options.tracer === undefined ? Layer.empty : Layer.succeed(Tracer.Tracer, options.tracer)),
    Layer.provideMerge(
      options.logs === undefined
        ? Layer.succeed(References.MinimumLogLevel, options.logLevel ?? "None")
        : capturedLogs(options.logs).pipe(Layer.provide(config))
    ),
    // each app counts in a registry of its own: /metrics shows this app's requests, and tests do not share counts
    Layer.provideMerge(Layer.succeed(Metric.MetricRegistry, new Map()))
  )
  const web = HttpRouter.toWebHandler(layer, { disableLogger: true })
  const { handler } = web
  const dispose = async () => {
    await web.dispose()
    await Effect.runPromise(Scope.close(drainScope, Exit.void))
  }

  const request = (path: string, init: RequestInit = {}) => handler(new Request(`http://localhost${path}`, init))

  /** POST a JSON body (or raw text) with the key, unless `key: null`. */
  const post = (
    path: string,
    body: unknown,
    init: { readonly key?: string | null; readonly headers?: Record<string, string>; readonly raw?: boolean } = {}
  ) =>
    request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? KEY}` }),
        ...init.headers
      },
      body: init.raw === true ? String(body) : JSON.stringify(body)
    })

  return { buckets, dispose, drain, handler, limiter, post, request }
}

export type TestApp = ReturnType<typeof makeTestApp>

export const UA_PATH = "/v1/tools/user-agent-parser"
export const WAGE_PATH = "/v1/tools/wage-estimator"

export const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"

/** The response's JSON body, after checking it is declared JSON. */
export const json = async (response: Response): Promise<any> => {
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) {
    throw new Error(`not JSON: ${response.status} ${response.headers.get("content-type")} ${await response.text()}`)
  }
  return response.json()
}

/** Asserts the one error envelope and returns its `error`. */
export const errorOf = async (response: Response, status: number, code: string) => {
  const body = await json(response)
  if (response.status !== status || body?.success !== false || body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${JSON.stringify(body)}`)
  }
  if (typeof body.error.message !== "string" || body.error.message.length === 0) throw new Error("no message")
  const keys = Object.keys(body).sort().join(",")
  if (keys !== "error,success") throw new Error(`extra top-level keys: ${keys}`)
  return body.error as { code: string; message: string; details?: Array<{ path: string; message: string }> }
}
