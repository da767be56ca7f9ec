// Effect's Redis store made fail-open: from a command's first failure until a probe (once a second) answers, each
// instance decides from its own memory, on Redis's clock; the outage is logged once, with its reason.
import { Clock, Effect, Layer, Schedule } from "effect"
import { RateLimiter, Redis } from "effect/persistence"
import { Metrics } from "../Observability/Metrics.ts"
import { clockAt, makeMemoryStore } from "./MemoryStore.ts"
import { connect } from "./Redis.ts"

const PREFIX = "tools-api:ratelimit:"
const DOWN = "Redis does not answer: each instance limits on its own until it does"
const REFUSED = "Redis authentication failed (see REDIS_URL): each instance limits on its own until it succeeds"

export const layerStoreFailOpen = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.gen(function* () {
    const metrics = yield* Metrics
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
    const setUp = (answering: boolean): void => {
      up = answering
      metrics.setStoreUp(answering)
    }
    metrics.setStoreUp(up)
    // exported from the start at 0, as the other counters are
    metrics.countStoreFallbacks(0)
    yield* up ? annotate(Effect.logInfo("Rate limits are shared through Redis")) : outage(why())

    const wentDown = (error: unknown) =>
      Effect.suspend(() => {
        if (!up) return Effect.void
        setUp(false)
        return outage(why(error))
      })
    const back = annotate(Effect.logInfo("Redis answers again: rate limits are shared again"))
    const cameBack = Effect.suspend(() => {
      setUp(true)
      return back
    })
    const probe = Effect.suspend(() => (up ? Effect.void : Effect.ignore(Effect.andThen(redis.send("PING"), cameBack))))
    yield* Effect.forkScoped(Effect.repeat(probe, Schedule.spaced("1 second")))

    const alone: typeof memory.tokenBucket = (options) =>
      Effect.suspend(() => {
        metrics.countStoreFallbacks(1)
        return memory.tokenBucket(options)
      })
    const onRedis: typeof alone = (options) => Effect.provideService(shared.tokenBucket(options), Clock.Clock, clock)
    const tokenBucket: typeof alone = (options) =>
      Effect.catch(onRedis(options), (error) => Effect.andThen(wentDown(error), alone(options)))
    return { ...shared, tokenBucket: (options) => Effect.suspend(() => (up ? tokenBucket : alone)(options)) }
  })
)
