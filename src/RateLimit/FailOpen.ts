// Effect's Redis store made fail-open: from a command's first failure until a probe (once a second) answers, each
// instance decides from its own memory, on Redis's clock; the outage is logged once, with its reason.
import { Clock, Context, Effect, Layer, Metric, Schedule } from "effect"
import { RateLimiter, Redis } from "effect/persistence"
import { clockAt, makeMemoryStore } from "./MemoryStore.ts"
import { connect } from "./Redis.ts"

export const storeUp = Metric.gauge("rate_limit_store_up", {
  description: "1 while Redis holds the rate limits and answers; 0 while this instance limits alone"
})
export const storeFallbacks = Metric.counter("rate_limit_store_fallbacks_total", {
  description: "Rate-limit decisions this instance made from its own memory because Redis did not answer",
  incremental: true
})
const PREFIX = "tools-api:ratelimit:"
const DOWN = "Redis does not answer: each instance limits on its own until it does"
const REFUSED = "Redis authentication failed (see REDIS_URL): each instance limits on its own until it succeeds"
// Updated in place, in the default registry that /metrics reads.
const registry = Context.empty()

export const layerStoreFailOpen = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.gen(function* () {
    const { redis, address, connected, why, now } = yield* connect
    const shared = yield* Effect.provideService(RateLimiter.makeStoreRedis({ prefix: PREFIX }), Redis.Redis, redis)
    const memory = makeMemoryStore()
    yield* memory.sweepEvery
    const clock = clockAt(yield* Clock.Clock, now)
    const annotate = Effect.annotateLogs({ redis: address })
    const outage = (reason: string) =>
      Effect.logWarning(/^authentication/.test(reason) ? REFUSED : DOWN).pipe(
        Effect.annotateLogs({ redis: address, reason })
      )
    let up = connected
    const set = (now: boolean) => ((up = now), storeUp.updateUnsafe(now ? 1 : 0, registry))
    set(up)
    storeFallbacks.updateUnsafe(0, registry)
    yield* up ? annotate(Effect.logInfo("Rate limits are shared through Redis")) : outage(why())

    const wentDown = (error: unknown) => Effect.suspend(() => (up ? (set(false), outage(why(error))) : Effect.void))
    const back = annotate(Effect.logInfo("Redis answers again: rate limits are shared again"))
    const cameBack = Effect.suspend(() => (set(true), back))
    const probe = Effect.suspend(() => (up ? Effect.void : Effect.ignore(Effect.andThen(redis.send("PING"), cameBack))))
    yield* Effect.forkScoped(Effect.repeat(probe, Schedule.spaced("1 second")))

    const alone: typeof memory.tokenBucket = (options) =>
      Effect.suspend(() => (storeFallbacks.updateUnsafe(1, registry), memory.tokenBucket(options)))
    const onRedis: typeof alone = (options) => Effect.provideService(shared.tokenBucket(options), Clock.Clock, clock)
    const tokenBucket: typeof alone = (options) =>
      Effect.catch(onRedis(options), (error) => Effect.andThen(wentDown(error), alone(options)))
    return { ...shared, tokenBucket: (options) => Effect.suspend(() => (up ? tokenBucket : alone)(options)) }
  })
)
