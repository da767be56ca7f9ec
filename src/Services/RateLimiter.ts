/**
 * The rate limiter the server asks: in process (InMemoryRateLimiter.ts) or with its buckets in Redis
 * (RedisRateLimiter.ts), which falls back to the in-process one while Redis does not answer.
 */
import { Context, Effect, Layer } from "effect"
import { AppConfig, type InvalidConfig } from "../Config.ts"
import { makeInMemory, type RateLimiterOptions, type RateLimiterShape } from "./InMemoryRateLimiter.ts"
import { makeRedisLimiter } from "./RedisRateLimiter.ts"
import { RedisStore } from "./RedisStore.ts"

export {
  makeInMemory,
  MAX_ENTRIES,
  normaliseAddress,
  type RateLimitDecision,
  type RateLimiterOptions,
  type RateLimiterShape,
  WINDOW_MS
} from "./InMemoryRateLimiter.ts"

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()("app/RateLimiter") {
  /** In memory, with RATE_LIMIT_PER_MINUTE and AUTH_FAILURES_PER_MINUTE. */
  static readonly layer: Layer.Layer<RateLimiter, never, AppConfig> = Layer.effect(
    RateLimiter,
    Effect.map(AppConfig, (settings) =>
      makeInMemory({ perMinute: settings.ratePerMinute, authFailuresPerMinute: settings.authFailuresPerMinute })
    )
  )

  /** Buckets in Redis at REDIS_URL, with its connection. */
  static readonly layerRedis: Layer.Layer<RateLimiter, InvalidConfig, AppConfig> = Layer.effect(
    RateLimiter,
    makeRedisLimiter
  ).pipe(Layer.provide(RedisStore.layer))

  /** A limiter with explicit numbers, no configuration read. */
  static readonly Test = (options: RateLimiterOptions): Layer.Layer<RateLimiter> =>
    Layer.sync(RateLimiter, () => makeInMemory(options))
}

/** Redis when REDIS_URL is set, so that every instance shares one limit; else in memory. */
export const RateLimiterLive: Layer.Layer<RateLimiter, InvalidConfig, AppConfig> = Layer.unwrap(
  Effect.map(AppConfig, (settings) => (settings.redisUrl === undefined ? RateLimiter.layer : RateLimiter.layerRedis))
)
