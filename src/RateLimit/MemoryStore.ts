/**
 * The token buckets in memory: Effect's memory store (`RateLimiter.layerStoreMemory`) as one synchronous call, with
 * the bound it lacks. Each table (keys; addresses, so a flood of addresses cannot evict keys) is two generations: a new
 * one each window or at half the cap, the one before dropped (its buckets are full, the same as none). A bucket only
 * in the older one moves to the newer, state kept. A sweep every half window rotates an idle table too, so the
 * buckets of a burst are gone within two and a half windows, requests or not. The arithmetic is Effect's, line for
 * line; a property test holds the two to the same answers (test/RateLimit/RateLimiter.test.ts).
 */
import { Duration, Effect, Schedule } from "effect"
import { RateLimiter } from "effect/persistence"

/** Hard cap on each table; roughly 200 bytes an entry. */
export const MAX_ENTRIES = 100_000
// A bucket refills completely within a minute: one untouched for a window is full, the same as none.
const WINDOW_MS = 60_000

export type Store = RateLimiter.RateLimiterStore["Service"]
/** What a take needs of Effect's `tokenBucket` options: the refill interval comes as milliseconds beside them. */
type Options = Pick<Parameters<Store["tokenBucket"]>[0], "key" | "tokens" | "limit" | "allowOverflow">
interface Bucket {
  tokens: number
  lastRefill: number
}

const table = (maxEntries: number) => {
  let current = { buckets: new Map<string, Bucket>(), since: 0 }
  let previous = current

  const rotate = (now: number) => {
    previous = current
    current = { buckets: new Map(), since: now }
  }
  /** Effect's `tokenBucket` at `now`: tokens left after this take (negative: refused) and ms since the last refill. */
  const take = (options: Options, refillMs: number, now: number): readonly [number, number] => {
    if (now - current.since >= WINDOW_MS || current.buckets.size >= maxEntries / 2) rotate(now)
    let bucket = current.buckets.get(options.key)
    if (bucket === undefined) {
      bucket = previous.buckets.get(options.key) ?? { tokens: options.limit, lastRefill: now }
      current.buckets.set(options.key, bucket)
    }
    const tokensToAdd = Math.floor((now - bucket.lastRefill) / refillMs)
    if (tokensToAdd > 0) {
      bucket.tokens = Math.min(options.limit, bucket.tokens + tokensToAdd)
      bucket.lastRefill += tokensToAdd * refillMs
    }
    if (bucket.tokens >= options.limit) bucket.lastRefill = now
    const left = bucket.tokens - options.tokens
    if (options.allowOverflow || left >= 0) bucket.tokens = left
    return [left, Math.max(0, now - bucket.lastRefill)]
  }
  /** Without takes too, a window on: a bucket left alone for two windows is full, and dropped. */
  const sweep = (now: number) => {
    if (now - current.since >= WINDOW_MS) rotate(now)
  }
  const size = () => current.buckets.size + (previous === current ? 0 : previous.buckets.size)
  return { take, sweep, size }
}

/**
 * The store (Effect's interface, for Effect's `RateLimiter` and the Redis store's fallback), its synchronous
 * `takeNow`, and the buckets each table holds (for tests). Keys starting `address:` go to the address table.
 */
export const makeMemoryStore = (maxEntries = MAX_ENTRIES) => {
  const tables = { keys: table(maxEntries), addresses: table(maxEntries) }
  const takeNow = (options: Options, refillMs: number, now: number) =>
    tables[options.key.startsWith("address:") ? "addresses" : "keys"].take(options, refillMs, now)
  const tokenBucket: Store["tokenBucket"] = (options) =>
    Effect.clockWith((clock) =>
      Effect.succeed(takeNow(options, Duration.toMillis(options.refillRate), clock.currentTimeMillisUnsafe()))
    )
  const size = () => ({ keys: tables.keys.size(), addresses: tables.addresses.size() })
  const sweep = (now: number) => (tables.keys.sweep(now), tables.addresses.sweep(now))
  /** Sweeps every half window while the scope lasts, so idle buckets go even when no request comes. */
  const sweepEvery = Effect.forkScoped(
    Effect.repeat(
      Effect.clockWith((clock) => Effect.sync(() => sweep(clock.currentTimeMillisUnsafe()))),
      Schedule.spaced(WINDOW_MS / 2)
    )
  )
  const effects = Effect.runSync(
    Effect.provide(Effect.service(RateLimiter.RateLimiterStore), RateLimiter.layerStoreMemory)
  )
  return { ...effects, tokenBucket, takeNow, size, sweep, sweepEvery }
}

export type MemoryStore = ReturnType<typeof makeMemoryStore>
