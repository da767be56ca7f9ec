/**
 * The caller's token bucket (the `RateLimit` middleware of `Api.ts`): a token a request, or 429 with `Retry-After`;
 * every answer to a known caller, refused or not, carries the rate-limit headers (`RateLimit/Headers.ts`).
 */
import { Clock, Effect, Layer } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
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

    /**
     * The headers of the decision on whatever the caller is answered: set on a response the steps after this one
     * made, or, for a 429 here or an error they fail with (encoded later, outside the middleware), through the
     * framework's pre-response hook.
     */
    const decided = <E, R>(
      decision: RateLimitDecision,
      now: number,
      next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ): Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      E | RateLimited,
      R | HttpServerRequest.HttpServerRequest
    > => {
      const headers = RateLimitHeaders.headersOf(decision, now)
      if (decision.allowed) {
        return Effect.matchCauseEffect(next, {
          onSuccess: (response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)),
          onFailure: (cause) => Effect.andThen(respondWith(headers), Effect.failCause(cause))
        })
      }
      countRateLimited("key")
      const retry = seconds(decision.retryAfterSeconds)
      return Effect.andThen(
        respondWith(headers),
        Effect.fail(
          new RateLimited({
            message: `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retry}`,
            retryAfterSeconds: decision.retryAfterSeconds
          })
        )
      )
    }

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
