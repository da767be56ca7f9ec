/**
 * The served application: Bun's HTTP server, the edge middleware, logging, and the shutdown drain, as layers.
 * `main.ts` launches `ServerLive`; the compiled-binary and listening-server tests launch it too.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServer from "@effect/platform/HttpServer"
import { Cause, ConfigError, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { integer, oneOf, optionalText } from "./Config.ts"
import { edge, HttpLive } from "./Http.ts"
import * as BunServer from "./Http/BunServer.ts"
import { JsonLoggerLive } from "./Http/RequestLog.ts"
import { ApiKeyStore } from "./Services/ApiKeyStore.ts"
import { Drain } from "./Services/Drain.ts"
import { RateLimiter } from "./Services/RateLimiter.ts"
import { RedisRateLimiterLive } from "./Services/RedisRateLimiter.ts"
import { UserAgents } from "./Services/UserAgents.ts"
import { Wages } from "./Services/Wages.ts"
import { WorkerReadyLive, workerIndex } from "./Workers.ts"

const levels = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
}

export const LoggerLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const level = yield* oneOf("LOG_LEVEL", ["debug", "info", "warning", "error", "none"], "info")
    const format = yield* oneOf("LOG_FORMAT", ["json", "pretty"], "json")
    return Layer.merge(format === "json" ? JsonLoggerLive : Logger.pretty, Logger.minimumLogLevel(levels[level]))
  })
)

/** Buckets in this process, or in Redis when REDIS_URL is set, shared by every instance and worker. */
const RateLimiterLive = Layer.unwrapEffect(
  Effect.map(optionalText("REDIS_URL"), (url) => (Option.isSome(url) ? RedisRateLimiterLive : RateLimiter.Default))
)

/** Whether anything can listen on `hostname` (any free port). */
const canListen = (hostname: string): boolean => {
  try {
    Bun.serve({ hostname, port: 0, fetch: () => new Response() }).stop(true)
    return true
  } catch {
    return false
  }
}

/**
 * A failed listen as one line naming the variable at fault. Bun's own errors can mislead ("Is port 0 in use?" for
 * an address that is not this machine's), so: if nothing can listen on HOST, HOST is wrong; otherwise PORT is.
 */
const listenFailed = (hostname: string, port: number) => (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause) as { readonly code?: unknown }
  if (!canListen(hostname)) {
    return Layer.fail(
      ConfigError.InvalidData(
        ["HOST"],
        `HOST must be an address of this machine to listen on, got ${JSON.stringify(hostname)}`
      )
    )
  }
  const why = error.code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${String(error.code)})`
  return Layer.fail(ConfigError.InvalidData(["PORT"], `PORT ${port} ${why} on ${hostname}`))
}

const BunServerLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const port = yield* integer("PORT", 3000, 0, 65_535)
    const hostname = Option.getOrElse(yield* optionalText("HOST"), () => "0.0.0.0").trim()
    // Seconds a connection may sit idle (a client that stops sending) before Bun closes it; Bun allows 1 to 255.
    const idleTimeout = yield* integer("IDLE_TIMEOUT_SECONDS", 30, 1, 255)
    // Bun answers an empty 413 past its own cap, before the app runs. The app enforces MAX_BODY_BYTES without
    // buffering past it (Http/Body.ts), so Bun's cap only has to be out of the way, for the 413 to have its body.
    // A worker (Workers.ts) shares the port with its siblings; a lone process must find it free.
    const reusePort = Option.isSome(yield* workerIndex)
    return BunServer.layer({
      port,
      hostname,
      reusePort,
      maxRequestBodySize: 1 << 30,
      idleTimeout
    }).pipe(Layer.catchAllCause(listenFailed(hostname, port)))
  })
)

/** A lone process logs its address; a worker tells the primary, which logs one address for all. */
const Serve = Layer.unwrapEffect(
  Effect.gen(function* () {
    const served = HttpApiBuilder.serve(edge(yield* Drain))
    return Option.isSome(yield* workerIndex)
      ? WorkerReadyLive.pipe(Layer.provideMerge(served))
      : served.pipe(HttpServer.withLogAddress)
  })
)

/** Built after the server, so on shutdown it runs first: new requests get 503 while in-flight ones finish. */
const DrainOnShutdown = Layer.scopedDiscard(
  Effect.gen(function* () {
    const drain = yield* Drain
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        yield* Effect.logInfo("Shutting down: finishing in-flight requests", { inFlight: drain.inFlight() })
        const unfinished = yield* drain.drain()
        yield* Effect.logInfo("Stopped", { unfinished })
      })
    )
  })
)

/** After the server listens: a generated key is printed only by a start that succeeded. */
const AnnounceKey = Layer.effectDiscard(Effect.flatMap(ApiKeyStore, (store) => store.announce))

export const ServicesLive = Layer.mergeAll(ApiKeyStore.Default, RateLimiterLive, UserAgents.Default, Wages.Default)

export const ServerLive = Layer.merge(DrainOnShutdown, AnnounceKey).pipe(
  Layer.provide(Serve.pipe(Layer.provide(HttpLive), Layer.provide(BunServerLive))),
  Layer.provide([ServicesLive, Drain.Default]),
  Layer.provide(LoggerLive)
)
