/**
 * Effect's memory store (`RateLimiter.layerStoreMemory`) with the bound it lacks. Each table (keys; addresses, so a
 * flood of addresses cannot evict keys) is two generations of Effect's store: a new one each window or at half the
 * cap, the one before dropped (its buckets are full, the same as none). A key only in the older one moves, state kept.
 */
import { Clock, Effect } from "effect"
import { RateLimiter } from "effect/persistence"

/** Hard cap on each table; roughly 200 bytes an entry. */
export const MAX_ENTRIES = 100_000

export type Store = RateLimiter.RateLimiterStore["Service"]
const fresh = Effect.provide(Effect.service(RateLimiter.RateLimiterStore), RateLimiter.layerStoreMemory)
const generation = (since: number) => ({ store: Effect.runSync(fresh), keys: new Set<string>(), since })

const table = (maxEntries: number) => {
  let current = generation(0)
  let previous = current
  const tokenBucket: Store["tokenBucket"] = (options) =>
    Effect.clockWith((clock) => {
      const now = clock.currentTimeMillisUnsafe()
      if (now - current.since >= 60_000 || current.keys.size >= maxEntries / 2)
        [previous, current] = [current, generation(now)]
      const moving = !current.keys.has(options.key) && previous.keys.has(options.key)
      current.keys.add(options.key)
      if (!moving) return current.store.tokenBucket(options)
      return Effect.tap(previous.store.tokenBucket(options), ([remaining, elapsedMs]) => {
        const left = remaining < 0 ? remaining + options.tokens : remaining
        const seed = current.store.tokenBucket({ ...options, tokens: options.limit - left, allowOverflow: false })
        // On a clock set back by `elapsedMs`, where Effect's store then starts the bucket's refill interval.
        return Effect.provideService(seed, Clock.Clock, { ...clock, currentTimeMillisUnsafe: () => now - elapsedMs })
      })
    })
  return { tokenBucket, size: () => current.keys.size + (previous === current ? 0 : previous.keys.size) }
}

/** The store, and the buckets each table holds (for tests). Keys starting `address:` go to the address table. */
export const makeMemoryStore = (maxEntries = MAX_ENTRIES) => {
  const tables = { keys: table(maxEntries), addresses: table(maxEntries) }
  const tokenBucket: Store["tokenBucket"] = (options) =>
    tables[options.key.startsWith("address:") ? "addresses" : "keys"].tokenBucket(options)
  const size = () => ({ keys: tables.keys.size(), addresses: tables.addresses.size() })
  return { ...Effect.runSync(fresh), tokenBucket, size }
}
