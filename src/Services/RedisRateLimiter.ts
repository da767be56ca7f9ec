/**
 * The RateLimiter with its buckets in Redis (REDIS_URL), so any number of instances enforce one limit. While Redis
 * does not answer within its budget (unreachable, stalled, slow), each instance decides from its own in-memory
 * buckets -- the in-memory limiter itself -- logs the outage once, and probes Redis once a second until it answers;
 * then it logs once more and goes back to shared buckets. Authentication does not touch Redis.
 */
import { Effect, Layer, Metric, Schedule } from "effect"
import { limiterOptions, makeInMemory, normaliseAddress, RateLimiter, WINDOW_MS } from "./RateLimiter.ts"
import { RedisStore, type StoreUnavailable } from "./RedisStore.ts"

export const storeUp = Metric.gauge("rate_limit_store_up", {
  description: "1 while Redis holds the rate limits and answers within 50 ms; 0 while this instance limits alone"
})
export const storeFallbacks = Metric.counter("rate_limit_store_fallbacks_total", {
  description: "Rate-limit decisions this instance made from its own memory because Redis did not answer"
})

/** While Redis is down, one probe a second: enough to come back quickly, too little to hammer a struggling Redis. */
export const PROBE_INTERVAL = "1 second"

const make = Effect.gen(function* () {
  const options = yield* limiterOptions
  const store = yield* RedisStore
  const memory = makeInMemory(options)
  const keys = { capacity: options.perMinute, windowMs: WINDOW_MS }
  const addresses = { capacity: options.authFailuresPerMinute, windowMs: WINDOW_MS }

  let up = store.connected
  storeUp.unsafeUpdate(up ? 1 : 0, [])
  storeFallbacks.unsafeUpdate(0, [])
  const annotate = Effect.annotateLogs({ redis: store.address })
  const DOWN = "Redis does not answer: each instance limits on its own until it does"
  yield* annotate(up ? Effect.logInfo("Rate limits are shared through Redis") : Effect.logWarning(DOWN))

  const wentDown = (failure: StoreUnavailable) =>
    Effect.suspend(() => {
      if (!up) return Effect.void
      up = false
      storeUp.unsafeUpdate(0, [])
      return Effect.logWarning(DOWN).pipe(annotate, Effect.annotateLogs("reason", failure.reason))
    })

  const alone = <A>(decide: Effect.Effect<A>): Effect.Effect<A> =>
    Effect.suspend(() => {
      storeFallbacks.unsafeUpdate(1, [])
      return decide
    })

  /** Shared while Redis answers; the instance's own bucket from the first failure until a probe succeeds. */
  const shared = <A>(viaRedis: Effect.Effect<A, StoreUnavailable>, local: Effect.Effect<A>): Effect.Effect<A> =>
    Effect.suspend(() =>
      up ? Effect.catchAll(viaRedis, (failure) => Effect.zipRight(wentDown(failure), alone(local))) : alone(local)
    )

  const probe = Effect.suspend(() =>
    up
      ? Effect.void
      : store.ping.pipe(
          Effect.zipRight(
            Effect.suspend(() => {
              up = true
              storeUp.unsafeUpdate(1, [])
              return annotate(Effect.logInfo("Redis answers again: rate limits are shared again"))
            })
          ),
          Effect.ignore
        )
  )
  yield* Effect.forkScoped(Effect.repeat(probe, Schedule.spaced(PROBE_INTERVAL)))

  return RateLimiter.make({
    take: (callerId) => shared(store.take("key", callerId, keys), memory.take(callerId)),
    recordAuthFailure: (address) => {
      const normalised = normaliseAddress(address)
      return shared(store.take("address", normalised, addresses), memory.recordAuthFailure(normalised))
    },
    size: memory.size
  })
})

/** RateLimiter backed by Redis, with its connection; Server.ts picks it when REDIS_URL is set. */
export const RedisRateLimiterLive = Layer.scoped(RateLimiter, make).pipe(Layer.provide(RedisStore.Default))
