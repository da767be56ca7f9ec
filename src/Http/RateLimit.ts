/**
 * The caller's token bucket (the `RateLimit` middleware of `Api.ts`): a token a request, or 429 with `Retry-After`;
 * every answer to a known caller, refused or not, carries the rate-limit headers (`RateLimit/Headers.ts`).
 */
import { Clock, Effect, Layer } from "effect"
import { CurrentCaller, RateLimit } from "../Api.ts"
import { RateLimited } from "../Errors.ts"
import { countRateLimited } from "../Observability/Metrics.ts"
import { TracedSteps } from "../Observability/Tracing.ts"
import * as RateLimitHeaders from "../RateLimit/Headers.ts"
import { type RateLimitDecision, RateLimiter } from "../RateLimit/RateLimiter.ts"
import { respondWith, seconds } from "./Authentication.ts"

export const RateLimitLive = Layer.effect(
  RateLimit,
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    const traced = yield* TracedSteps

    const decided = <A, E, R>(decision: RateLimitDecision, now: number, next: Effect.Effect<A, E, R>) =>
      Effect.andThen(
        respondWith(RateLimitHeaders.headersOf(decision, now)),
        (): Effect.Effect<A, E | RateLimited, R> => {
          if (decision.allowed) return next
          countRateLimited("key")
          return Effect.fail(
            new RateLimited({
              message: `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${seconds(decision.retryAfterSeconds)}`,
              retryAfterSeconds: decision.retryAfterSeconds
            })
          )
        }
      )

    // With the buckets in this process (and no span to record the take in), the take is a plain call: the
    // limiter's Effect costs more than the bucket's arithmetic.
    const takeNow = traced.enabled ? undefined : limiter.takeNow

    return RateLimit.of((httpEffect) =>
      Effect.flatMap(Effect.service(CurrentCaller), (caller) =>
        Effect.clockWith((clock: Clock.Clock) => {
          if (takeNow !== undefined) {
            const now = clock.currentTimeMillisUnsafe()
            return decided(takeNow(caller.bucket, now), now, httpEffect)
          }
          return Effect.flatMap(traced.span("rate-limit", limiter.take(caller.bucket)), (decision) =>
            decided(decision, clock.currentTimeMillisUnsafe(), httpEffect)
          )
        })
      )
    )
  })
)
