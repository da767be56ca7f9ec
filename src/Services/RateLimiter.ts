/**
 * In-process rate limits: a token bucket per API key (RATE_LIMIT_PER_MINUTE) and one per client address for failed
 * authentications (AUTH_FAILURES_PER_MINUTE). Time comes only from `Clock`, so TestClock drives it in tests.
 * The methods are the whole interface; `RedisRateLimiter.ts` implements it with buckets in Redis, and falls back to
 * this one while Redis does not answer.
 */
import { Clock, Effect, Layer } from "effect"
import { integer } from "../Config.ts"
import { BucketTable, type RateLimitDecision } from "../Domain/TokenBucket.ts"

export type { RateLimitDecision } from "../Domain/TokenBucket.ts"

export const WINDOW_MS = 60_000
/** Hard cap on each table (keys, addresses); roughly 100 bytes an entry. */
export const MAX_ENTRIES = 100_000

export interface RateLimiterOptions {
  readonly perMinute: number
  readonly authFailuresPerMinute: number
  readonly maxEntries?: number
}

const ipv4Mapped = /^(?:::|(?:0{1,4}:){5})ffff:(\d{1,3}(?:\.\d{1,3}){3})$/

/** One spelling per client: IPv4-mapped IPv6 (`::ffff:1.2.3.4`, any case) counts as the IPv4 address. */
export const normaliseAddress = (address: string): string => {
  const text = address.trim().toLowerCase()
  return ipv4Mapped.exec(text)?.[1] ?? text
}

export const makeInMemory = (options: RateLimiterOptions) => {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES
  const keys = new BucketTable({ capacity: options.perMinute, windowMs: WINDOW_MS }, maxEntries)
  const addresses = new BucketTable({ capacity: options.authFailuresPerMinute, windowMs: WINDOW_MS }, maxEntries)
  // No Effect.fn spans here: both run on every request and are a map lookup and a few multiplications.
  return {
    /** Takes one token from the bucket named `callerId` (ApiKeyStore's `bucket`: distinct per key), if it has one. */
    take: (callerId: string): Effect.Effect<RateLimitDecision> =>
      Effect.map(Clock.currentTimeMillis, (now) => keys.take(callerId, now)),
    /** Counts a failed authentication from `address`; not allowed means that address is over its budget. */
    recordAuthFailure: (address: string): Effect.Effect<RateLimitDecision> =>
      Effect.map(Clock.currentTimeMillis, (now) => addresses.take(normaliseAddress(address), now)),
    /** Entries held in each table; for tests and gauges. */
    size: Effect.sync(() => ({ keys: keys.size, addresses: addresses.size }))
  }
}

/** RATE_LIMIT_PER_MINUTE and AUTH_FAILURES_PER_MINUTE, read by either layer. */
export const limiterOptions = Effect.gen(function* () {
  const perMinute = yield* integer("RATE_LIMIT_PER_MINUTE", 100, 1, 1_000_000_000)
  const authFailuresPerMinute = yield* integer("AUTH_FAILURES_PER_MINUTE", 20, 1, 1_000_000_000)
  return { perMinute, authFailuresPerMinute } satisfies RateLimiterOptions
})

export class RateLimiter extends Effect.Service<RateLimiter>()("app/RateLimiter", {
  effect: Effect.map(limiterOptions, makeInMemory)
}) {
  /** A limiter with explicit numbers, no configuration read. */
  static readonly Test = (options: RateLimiterOptions): Layer.Layer<RateLimiter> =>
    Layer.sync(RateLimiter, () => RateLimiter.make(makeInMemory(options)))
}
