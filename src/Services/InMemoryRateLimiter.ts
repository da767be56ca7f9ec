/**
 * In-process rate limits: a token bucket per API key (RATE_LIMIT_PER_MINUTE) and one per client address for failed
 * authentications (AUTH_FAILURES_PER_MINUTE). Time comes only from `Clock`, so TestClock drives it in tests. Its
 * own module, apart from the `RateLimiter` service, so that the Redis limiter, which falls back to it, and the
 * service, which offers both, import it without importing each other.
 */
import { Clock, Effect } from "effect"
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

/** What every rate limiter offers; the `RateLimiter` service's shape. */
export interface RateLimiterShape {
  /** Takes one token from the bucket named `bucket` (ApiKeyStore's `Caller.bucket`), if it has one. */
  readonly take: (bucket: string) => Effect.Effect<RateLimitDecision>
  /** Counts a failed authentication from `address`; not allowed means that address is over its budget. */
  readonly recordAuthFailure: (address: string) => Effect.Effect<RateLimitDecision>
  /** Entries held in each in-memory table; for tests and gauges. */
  readonly size: Effect.Effect<{ readonly keys: number; readonly addresses: number }>
}

export const makeInMemory = (options: RateLimiterOptions): RateLimiterShape => {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES
  const keys = new BucketTable({ capacity: options.perMinute, windowMs: WINDOW_MS }, maxEntries)
  const addresses = new BucketTable({ capacity: options.authFailuresPerMinute, windowMs: WINDOW_MS }, maxEntries)
  // No Effect.fn spans here: both run on every request and are a map lookup and a few multiplications.
  return {
    take: (bucket) => Effect.map(Clock.currentTimeMillis, (now) => keys.take(bucket, now)),
    recordAuthFailure: (address) =>
      Effect.map(Clock.currentTimeMillis, (now) => addresses.take(normaliseAddress(address), now)),
    size: Effect.sync(() => ({ keys: keys.size, addresses: addresses.size }))
  }
}
