/** A token bucket per key and per address in Effect's `RateLimiterStore`: in memory, or in Redis (FailOpen.ts). */
import { Context, Duration, Effect, Layer } from "effect"
import { RateLimiterStore } from "effect/persistence/RateLimiter"
import { AppConfig, type InvalidConfig } from "../Config.ts"
import type { Metrics } from "../Observability/Metrics.ts"
import { layerStoreFailOpen } from "./FailOpen.ts"
import { layerStoreMemory, makeMemoryStore, type Store } from "./MemoryStore.ts"

/** As the headers show it: whole tokens left, whole seconds until full and (refused) until the take would pass. */
export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
  readonly retryAfterSeconds: number
}

export type RateLimiterOptions = { readonly perMinute: number; readonly authFailuresPerMinute: number }

// Rounded to the millisecond first: at a capacity that does not divide a minute, the refill interval is a fraction.
const seconds = (ms: number) => Math.ceil(Math.round(ms) / 1000)

// Effect's `consume` arithmetic on the store's answer; refused, nothing was taken: the bucket holds what it held.
const decide = (limit: number, refillMs: number, tokens: number, [left, elapsedMs]: readonly [number, number]) => {
  const held = left >= 0 ? left : left + tokens
  const resetSeconds = seconds(Math.max(0, Math.ceil(limit - held) * refillMs - elapsedMs))
  if (left >= 0) return { allowed: true, limit, remaining: left, resetSeconds, retryAfterSeconds: 0 }
  const retryMs = Math.max(0, Math.ceil(-left) * refillMs - elapsedMs)
  return { allowed: false, limit, remaining: held, resetSeconds, retryAfterSeconds: Math.max(1, seconds(retryMs)) }
}

// From the store, not `consume`, which reports 0 left on a refusal; only Redis fails, and FailOpen.ts answers for it.
const make = (options: RateLimiterOptions) =>
  Effect.map(Effect.service(RateLimiterStore), (store) => {
    const bucket = (limit: number, key: string, tokens: number): Effect.Effect<RateLimitDecision> => {
      const refillRate = Duration.millis(60_000 / limit)
      return Effect.map(
        Effect.orDie(store.tokenBucket({ key, tokens, limit, refillRate, allowOverflow: false })),
        (left) => decide(limit, Duration.toMillis(refillRate), tokens, left)
      )
    }
    return RateLimiter.of({
      capacity: options.perMinute,
      take: (key, tokens = 1, limit = options.perMinute) => bucket(limit, `key:${key}`, tokens),
      recordAuthFailure: (address) => bucket(options.authFailuresPerMinute, `address:${address}`, 1)
    })
  })

export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    /** A key's bucket holds at most this many tokens (RATE_LIMIT_PER_MINUTE) unless the key has its own limit. */
    readonly capacity: number
    /** Takes `tokens` (default 1) from bucket `key` if it has them all; it holds `limit` a minute (or `capacity`). */
    readonly take: (key: string, tokens?: number, limit?: number) => Effect.Effect<RateLimitDecision>
    /** Counts a failed authentication from `address` (ClientAddress.ts's canonical form); refused: over budget. */
    readonly recordAuthFailure: (address: string) => Effect.Effect<RateLimitDecision>
  }
>()("app/RateLimiter") {
  static readonly Test = (options: RateLimiterOptions, store: Store = makeMemoryStore()) =>
    Layer.effect(RateLimiter, Effect.provideService(make(options), RateLimiterStore, store))
}

export const RateLimiterLive: Layer.Layer<RateLimiter, InvalidConfig, AppConfig | Metrics> = Layer.unwrap(
  Effect.map(AppConfig, (s) => {
    const store = s.redisUrl === undefined ? layerStoreMemory : layerStoreFailOpen
    const options = { perMinute: s.ratePerMinute, authFailuresPerMinute: s.authFailuresPerMinute }
    return Layer.effect(RateLimiter, make(options)).pipe(Layer.provide(store))
  })
)
