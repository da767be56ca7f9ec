/**
 * The served application: Bun's HTTP server, the edge middleware, logging, and the shutdown drain, as layers.
 * `main.ts` launches `ServerLive`; the compiled-binary and listening-server tests launch it too.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { BunHttpServer } from "@effect/platform-bun"
import { Config, ConfigError, Effect, Layer, Logger, LogLevel } from "effect"
import { integer, oneOf, optionalText } from "./Config.ts"
import { edge, HttpLive } from "./Http.ts"
import { ApiKeyStore } from "./Services/ApiKeyStore.ts"
import { Drain } from "./Services/Drain.ts"
import { RateLimiter } from "./Services/RateLimiter.ts"
import { UserAgents } from "./Services/UserAgents.ts"
import { Wages } from "./Services/Wages.ts"

/** Seconds a connection may sit idle (a client that stops sending) before Bun closes it. */
const IDLE_TIMEOUT_SECONDS = 30

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
    return Layer.merge(format === "json" ? Logger.json : Logger.pretty, Logger.minimumLogLevel(levels[level]))
  })
)

/** Settings that belong to later work are refused rather than silently ignored. */
const ScaleOutGuard = Layer.effectDiscard(
  Effect.gen(function* () {
    const workers = yield* integer("WORKERS", 1, 1, 256)
    const redis = yield* optionalText("REDIS_URL")
    if (workers > 1 && redis._tag === "None") {
      return yield* Effect.fail(
        ConfigError.InvalidData(
          ["WORKERS"],
          "WORKERS above 1 requires REDIS_URL, so the processes share one rate limit"
        )
      )
    }
    if (redis._tag === "Some" || workers > 1) {
      return yield* Effect.fail(
        ConfigError.InvalidData(
          ["REDIS_URL"],
          "REDIS_URL and WORKERS above 1 are not supported by this version yet; unset them"
        )
      )
    }
  })
)

const BunServerLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const port = yield* integer("PORT", 3000, 0, 65_535)
    const hostname = yield* Config.string("HOST").pipe(Config.withDefault("0.0.0.0"))
    // Bun answers an empty 413 past its own cap, before the app runs. The app enforces MAX_BODY_BYTES without
    // buffering past it (Http/Body.ts), so Bun's cap only has to be out of the way, for the 413 to have its body.
    return BunHttpServer.layer({ port, hostname, maxRequestBodySize: 1 << 30, idleTimeout: IDLE_TIMEOUT_SECONDS })
  })
)

const Serve = Layer.unwrapEffect(
  Effect.map(Drain, (drain) => HttpApiBuilder.serve(edge(drain)).pipe(HttpServer.withLogAddress))
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

export const ServicesLive = Layer.mergeAll(ApiKeyStore.Default, RateLimiter.Default, UserAgents.Default, Wages.Default)

export const ServerLive = Layer.merge(DrainOnShutdown, AnnounceKey).pipe(
  Layer.provide(Serve.pipe(Layer.provide(HttpLive), Layer.provide(BunServerLive))),
  Layer.provide([ServicesLive, Drain.Default, ScaleOutGuard]),
  Layer.provide(LoggerLive)
)
