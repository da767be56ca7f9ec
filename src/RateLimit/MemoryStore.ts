// Effect's memory store, bounded (it keeps every bucket it made). Each table (keys; addresses, so their flood cannot
// evict keys) is two generations of it, a new one each window or at half the cap, the older dropped (its buckets are
// full by then, as good as none); a bucket only in the older moves to the newer with its exact state.
import { Clock, Effect, Layer, Schedule } from "effect"
import { RateLimiter } from "effect/persistence"

const MAX_ENTRIES = 100_000
// A bucket refills completely within a minute: one untouched for a window is full, the same as none.
const WINDOW_MS = 60_000

export type Store = RateLimiter.RateLimiterStore["Service"]
type TakeOptions = Parameters<Store["tokenBucket"]>[0]

const effectStore = (): Store =>
  Effect.runSync(Effect.provide(Effect.service(RateLimiter.RateLimiterStore), RateLimiter.layerStoreMemory))

/** `clock` with its wall time read from `millis`: Effect's stores take a take's time from the `Clock`. */
export const clockAt = (clock: Clock.Clock, millis: () => number): Clock.Clock => ({
  currentTimeMillisUnsafe: millis,
  currentTimeMillis: Effect.sync(millis),
  currentTimeNanosUnsafe: () => BigInt(Math.round(millis() * 1e6)),
  currentTimeNanos: Effect.sync(() => BigInt(Math.round(millis() * 1e6))),
  monotonicTimeNanosUnsafe: () => clock.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: clock.monotonicTimeNanos,
  sleep: (duration) => clock.sleep(duration)
})

const runWith = <A, E>(effect: Effect.Effect<A, E>, clock: Clock.Clock): A =>
  Effect.runSync(Effect.provideService(effect, Clock.Clock, clock))

const table = (maxEntries: number) => {
  let current = { store: effectStore(), keys: new Set<string>(), since: 0 }
  let previous = current
  const rotate = (now: number) => {
    previous = current
    current = { store: effectStore(), keys: new Set(), since: now }
  }
  // Read with a take of nothing, set up as it was at its last refill; at once, so no other take comes between.
  const move = (options: TakeOptions, clock: Clock.Clock, now: number) => {
    const [held, elapsedMs] = runWith(previous.store.tokenBucket({ ...options, tokens: 0 }), clock)
    if (held < options.limit) {
      runWith(
        current.store.tokenBucket({ ...options, tokens: options.limit - held }),
        clockAt(clock, () => now - elapsedMs)
      )
    }
  }
  const take = (options: TakeOptions, clock: Clock.Clock): ReturnType<Store["tokenBucket"]> => {
    const now = clock.currentTimeMillisUnsafe()
    if (now - current.since >= WINDOW_MS || current.keys.size >= maxEntries / 2) rotate(now)
    if (!current.keys.has(options.key)) {
      current.keys.add(options.key)
      if (previous !== current && previous.keys.has(options.key)) move(options, clock, now)
    }
    return current.store.tokenBucket(options)
  }
  const sweep = (now: number) => {
    if (now - current.since >= WINDOW_MS) rotate(now)
  }
  const size = () => current.keys.size + (previous === current ? 0 : previous.keys.size)
  return { take, sweep, size }
}

export const makeMemoryStore = (maxEntries = MAX_ENTRIES) => {
  const tables = { keys: table(maxEntries), addresses: table(maxEntries) }
  const tokenBucket: Store["tokenBucket"] = (options) =>
    Effect.clockWith((clock) => tables[options.key.startsWith("address:") ? "addresses" : "keys"].take(options, clock))
  const size = () => ({ keys: tables.keys.size(), addresses: tables.addresses.size() })
  const sweep = (now: number) => {
    tables.keys.sweep(now)
    tables.addresses.sweep(now)
  }
  /** Sweeps every half window while the scope lasts, so idle buckets go even when no request comes. */
  const sweepEvery = Effect.forkScoped(
    Effect.repeat(Effect.map(Clock.currentTimeMillis, sweep), Schedule.spaced(WINDOW_MS / 2))
  )
  return { ...effectStore(), tokenBucket, size, sweepEvery }
}

export const layerStoreMemory = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.tap(Effect.sync(makeMemoryStore), (store) => store.sweepEvery)
)
