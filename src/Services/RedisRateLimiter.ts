/**
 * The rate limiter with its buckets in Redis (REDIS_URL), so any number of instances enforce one limit. While Redis
 * does not answer within its budget (unreachable, stalled, slow), each instance decides from its own in-memory
 * buckets -- the in-memory limiter itself -- logs the outage once, and probes Redis once a second until it answers;
 * then it logs once more and goes back to shared buckets. Authentication does not touch Redis.
 * `RateLimiter.layerRedis` (RateLimiter.ts) provides it as the `RateLimiter` service.
 */
import { Context, Effect, Metric, Schedule, type Scope } from "effect"
import { AppConfig } from "../Config.ts"
import { makeInMemory, normaliseAddress, type RateLimiterShape, WINDOW_MS } from "./InMemoryRateLimiter.ts"
import { RedisStore, type StoreUnavailable } from "./RedisStore.ts"

export const storeUp = Metric.gauge("rate_limit_store_up", {
  description: "1 while Redis holds the rate limits and answers within 50 ms; 0 while this instance limits alone"
})
export const storeFallbacks = Metric.counter("rate_limit_store_fallbacks_total", {
  description: "Rate-limit decisions this instance made from its own memory because Redis did not answer"
})

/** While Redis is down, one probe a second: enough to come back quickly, too little to hammer a struggling Redis. */
export const PROBE_INTERVAL = "1 second"

const DOWN = "Redis does not answer: each instance limits on its own until it does"

// Updated in place, as the request metrics are, in the default registry that /metrics reads.
const registry = Context.empty()

export const makeRedisLimiter: Effect.Effect<RateLimiterShape, never, AppConfig | RedisStore | Scope.Scope> =
  Effect.gen(function* () {
    const settings = yield* AppConfig
    const store = yield* RedisStore
    const memory = makeInMemory({
      perMinute: settings.ratePerMinute,
      authFailuresPerMinute: settings.authFailuresPerMinute
    })
    const keys = { capacity: settings.ratePerMinute, windowMs: WINDOW_MS }
    const addresses = { capacity: settings.authFailuresPerMinute, windowMs: WINDOW_MS }

    let up = store.connected
    storeUp.updateUnsafe(up ? 1 : 0, registry)
    storeFallbacks.updateUnsafe(0, registry)
    const annotate = Effect.annotateLogs({ redis: store.address })
    yield* annotate(up ? Effect.logInfo("Rate limits are shared through Redis") : Effect.logWarning(DOWN))

    const wentDown = (failure: StoreUnavailable) =>
      Effect.suspend(() => {
        if (!up) return Effect.void
        up = false
        storeUp.updateUnsafe(0, registry)
        return Effect.logWarning(DOWN).pipe(annotate, Effect.annotateLogs("reason", failure.reason))
      })

    const alone = <A>(decide: Effect.Effect<A>): Effect.Effect<A> =>
      Effect.suspend(() => {
        storeFallbacks.updateUnsafe(1, registry)
        return decide
      })

    /** Shared while Redis answers; the instance's own bucket from the first failure until a probe succeeds. */
    const shared = <A>(viaRedis: Effect.Effect<A, StoreUnavailable>, local: Effect.Effect<A>): Effect.Effect<A> =>
      Effect.suspend(() =>
        up ? Effect.catch(viaRedis, (failure) => Effect.andThen(wentDown(failure), alone(local))) : alone(local)
      )

    const cameBack = Effect.suspend(() => {
      up = true
      storeUp.updateUnsafe(1, registry)
      return annotate(Effect.logInfo("Redis answers again: rate limits are shared again"))
    })
    const probe = Effect.suspend(() => (up ? Effect.void : store.ping.pipe(Effect.andThen(cameBack), Effect.ignore)))
    yield* Effect.forkScoped(Effect.repeat(probe, Schedule.spaced(PROBE_INTERVAL)))

    return {
      take: (bucket) => shared(store.take("key", bucket, keys), memory.take(bucket)),
      recordAuthFailure: (address) => {
        const normalised = normaliseAddress(address)
        return shared(store.take("address", normalised, addresses), memory.recordAuthFailure(normalised))
      },
      size: memory.size
    }
  })
