/**
 * The rate limiter the HTTP edge asks: Effect's token-bucket `RateLimiter` over a store in memory (MemoryStore.ts) or
 * in Redis (FailOpen.ts), its answers as the decision the RateLimit, X-RateLimit-* and Retry-After headers show.
 */
import { Context, Duration, Effect, Layer } from "effect"
import { RateLimiter as Limiter } from "effect/persistence"
import { AppConfig, type InvalidConfig } from "../Config.ts"
import { layerStoreFailOpen } from "./FailOpen.ts"
import { makeMemoryStore, type MemoryStore, type Store } from "./MemoryStore.ts"

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  /** Whole tokens left after this request. */
  readonly remaining: number
  /** Whole seconds until the bucket is full again (ceil, >= 0). */
  readonly resetSeconds: number
  /** When not allowed: whole seconds until one token is back (ceil, at least 1); else 0. */
  readonly retryAfterSeconds: number
}

export type RateLimiterOptions = { readonly perMinute: number; readonly authFailuresPerMinute: number }
const ipv4Mapped = /^(?:::|(?:0{1,4}:){5})ffff:(\d{1,3}(?:\.\d{1,3}){3})$/
/** One spelling per client: IPv4-mapped IPv6 (`::ffff:1.2.3.4`, any case) counts as the IPv4 address. */
export const normaliseAddress = (address: string): string => {
  const text = address.trim().toLowerCase()
  return ipv4Mapped.exec(text)?.[1] ?? text
}

// Rounded to the millisecond first: at a capacity that does not divide a minute, the refill interval is a fraction.
const seconds = (ms: number) => Math.ceil(Math.round(ms) / 1000)
const decide = (limit: number, remaining: number, resetMs: number, retryMs?: number): RateLimitDecision => {
  const retryAfterSeconds = retryMs === undefined ? 0 : Math.max(1, seconds(retryMs))
  return { allowed: retryMs === undefined, limit, remaining, resetSeconds: seconds(resetMs), retryAfterSeconds }
}

const WINDOW = Duration.minutes(1) // made once: Effect's `consume` would convert a number or a string on every call

/**
 * Effect's `consume` of `tokens` from its store's answer (tokens left after the take, negative when refused; ms since
 * the last refill), as a decision. Refused, nothing was taken: the bucket still holds what it held.
 */
const fromBucket = (
  limit: number,
  refillMs: number,
  tokens: number,
  [remaining, elapsedMs]: readonly [number, number]
) => {
  const held = remaining >= 0 ? remaining : remaining + tokens
  const resetMs = Math.max(0, Math.ceil(limit - held) * refillMs - elapsedMs)
  if (remaining >= 0) return decide(limit, remaining, resetMs)
  const retryMs = Math.max(0, Math.ceil(-remaining) * refillMs - elapsedMs)
  return decide(limit, held, resetMs, retryMs)
}

/** With the buckets in memory: Effect's token bucket as one synchronous call, no Effect a request (issue 22). */
const inMemory = (options: RateLimiterOptions, store: MemoryStore) => {
  const takeNow = (limit: number, key: string, now: number, tokens: number): RateLimitDecision => {
    const refillMs = 60_000 / limit
    return fromBucket(
      limit,
      refillMs,
      tokens,
      store.takeNow({ key, tokens, limit, allowOverflow: false }, refillMs, now)
    )
  }
  const now = (limit: number, key: string, tokens: number) =>
    Effect.clockWith((clock) => Effect.succeed(takeNow(limit, key, clock.currentTimeMillisUnsafe(), tokens)))
  return RateLimiter.of({
    capacity: options.perMinute,
    take: (bucket, tokens = 1) => now(options.perMinute, `key:${bucket}`, tokens),
    takeNow: (bucket, at, tokens = 1) => takeNow(options.perMinute, `key:${bucket}`, at, tokens),
    recordAuthFailure: (address) => now(options.authFailuresPerMinute, `address:${normaliseAddress(address)}`, 1)
  })
}

/** Over any other store (Redis): Effect's `RateLimiter`. */
const overStore = (options: RateLimiterOptions) =>
  Effect.map(Limiter.make, (limiter) => {
    const consume = (limit: number, key: string, tokens: number): Effect.Effect<RateLimitDecision> =>
      Effect.matchEffect(limiter.consume({ algorithm: "token-bucket", window: WINDOW, limit, key, tokens }), {
        onSuccess: ({ remaining, resetAfter }) =>
          Effect.succeed(decide(limit, remaining, Duration.toMillis(resetAfter))),
        onFailure: ({ reason }) => {
          // Only the Redis store fails otherwise, and FailOpen.ts answers its failures from memory.
          if (reason._tag !== "RateLimitExceeded") return Effect.die(reason)
          const retryMs = Duration.toMillis(reason.retryAfter)
          return Effect.succeed(decide(limit, 0, retryMs + ((limit - 1) * 60_000) / limit, retryMs))
        }
      })
    return RateLimiter.of({
      capacity: options.perMinute,
      take: (bucket, tokens = 1) => consume(options.perMinute, `key:${bucket}`, tokens),
      takeNow: undefined,
      recordAuthFailure: (address) => consume(options.authFailuresPerMinute, `address:${normaliseAddress(address)}`, 1)
    })
  })

const make = (options: RateLimiterOptions) =>
  Effect.gen(function* () {
    const store = yield* Limiter.RateLimiterStore
    return isMemoryStore(store) ? inMemory(options, store) : yield* overStore(options)
  })

const isMemoryStore = (store: Store): store is MemoryStore => "takeNow" in store

export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    /** A key's bucket holds at most this many tokens (RATE_LIMIT_PER_MINUTE). */
    readonly capacity: number
    /**
     * Takes `tokens` (default 1) from the bucket named `bucket` (ApiKeyStore's `Caller.bucket`) if it has them all,
     * else none.
     */
    readonly take: (bucket: string, tokens?: number) => Effect.Effect<RateLimitDecision>
    /** `take` at `now` (epoch ms) as a plain call, where the buckets are in this process; else undefined. */
    readonly takeNow: ((bucket: string, now: number, tokens?: number) => RateLimitDecision) | undefined
    /** Counts a failed authentication from `address`; not allowed means that address is over its budget. */
    readonly recordAuthFailure: (address: string) => Effect.Effect<RateLimitDecision>
  }
>()("app/RateLimiter") {
  /** Explicit numbers, no configuration read, over `store` (by default a fresh memory store). */
  static readonly Test = (options: RateLimiterOptions, store: Store = makeMemoryStore()) =>
    Layer.effect(RateLimiter, Effect.provideService(make(options), Limiter.RateLimiterStore, store))
}
/** Buckets in this process, idle ones swept while the layer lasts. */
const layerStoreMemory = Layer.effect(
  Limiter.RateLimiterStore,
  Effect.gen(function* () {
    const store = makeMemoryStore()
    yield* store.sweepEvery
    return store
  })
)

/** With RATE_LIMIT_PER_MINUTE, AUTH_FAILURES_PER_MINUTE; in Redis with REDIS_URL, so all instances share one limit. */
export const RateLimiterLive: Layer.Layer<RateLimiter, InvalidConfig, AppConfig> = Layer.unwrap(
  Effect.map(AppConfig, (s) => {
    const store = s.redisUrl === undefined ? layerStoreMemory : layerStoreFailOpen
    const options = { perMinute: s.ratePerMinute, authFailuresPerMinute: s.authFailuresPerMinute }
    return Layer.effect(RateLimiter, make(options)).pipe(Layer.provide(store))
  })
)
