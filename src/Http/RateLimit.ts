/**
 * The caller's token bucket (the `RateLimit` middleware of `Api.ts`): a token a request, or 429 with `Retry-After`;
 * every answer to a known caller, refused or not, carries the rate-limit headers (`RateLimit/Headers.ts`).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { CurrentCaller, RateLimit } from "../Api.ts"
import * as Contract from "../Tools/Contract.ts"
import { ReadRequest } from "./ReadRequest.ts"
import { InvalidRequest, type PayloadTooLarge, RateLimited } from "../Errors.ts"
import { countRateLimited } from "../Observability/Metrics.ts"
import { TracedSteps } from "../Observability/Tracing.ts"
import * as RateLimitHeaders from "../RateLimit/Headers.ts"
import { type RateLimitDecision, RateLimiter } from "../RateLimit/Limiter.ts"
import { respondWith, seconds } from "./Authentication.ts"

/** A request's cost in tokens: the endpoint's `TokenCost` of the body read, or 1 for a body the checks refused. */
const costOf = (request: HttpServerRequest.HttpServerRequest, endpoint: HttpApiEndpoint.Top): number => {
  if (!(request instanceof ReadRequest) || request.parsed === undefined) return 1
  const cost = Context.get(endpoint.annotations, Contract.TokenCost)(request.parsed)
  return Number.isInteger(cost) && cost > 1 ? cost : 1
}

export const RateLimitLive = Layer.effect(
  RateLimit,
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    const traced = yield* TracedSteps

    /**
     * The headers of the decision on whatever the caller is answered: set on a response the steps after this one
     * made, or, for a 429 here or an error they fail with (encoded later, outside the middleware), through the
     * framework's pre-response hook. Admitted, a body the checks refused is refused now.
     */
    const decided = <E, R>(
      decision: RateLimitDecision,
      now: number,
      cost: number,
      request: HttpServerRequest.HttpServerRequest,
      next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ): Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      E | RateLimited | InvalidRequest | PayloadTooLarge,
      R | HttpServerRequest.HttpServerRequest
    > => {
      const headers = RateLimitHeaders.headersOf(decision, now)
      if (decision.allowed) {
        const refused = request instanceof ReadRequest ? request.refused : undefined
        if (refused !== undefined) return Effect.andThen(respondWith(headers), Effect.fail(refused))
        return Effect.matchCauseEffect(next, {
          onSuccess: (response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)),
          onFailure: (cause) => Effect.andThen(respondWith(headers), Effect.failCause(cause))
        })
      }
      countRateLimited("key")
      const retry = seconds(decision.retryAfterSeconds)
      const asked = cost === 1 ? "" : ` (this request needs ${cost})`
      return Effect.andThen(
        respondWith(headers),
        Effect.fail(
          new RateLimited({
            message: `Rate limit of ${decision.limit} requests per minute exceeded${asked}; retry in ${retry}`,
            retryAfterSeconds: decision.retryAfterSeconds
          })
        )
      )
    }

    /** More than a bucket ever holds: refused for what it asks, with the one token any request takes. */
    const overCapacity = (cost: number) =>
      new InvalidRequest({
        message: `This request asks for ${cost} user agents; a key may send at most ${limiter.capacity} at once`
      })

    // One step reads what it needs from the request's fiber (its context and clock): an Effect each for the caller,
    // the request and the clock cost more than the rest of this middleware.
    return RateLimit.of((httpEffect, { endpoint }) =>
      Effect.withFiber((fiber) => {
        const caller = Context.getUnsafe(fiber.context, CurrentCaller)
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const clock = fiber.getRef(Clock.Clock)
        const asked = costOf(request, endpoint)
        const cost = asked > limiter.capacity ? 1 : asked
        const next: Effect.Effect<
          HttpServerResponse.HttpServerResponse,
          Effect.Error<typeof httpEffect> | InvalidRequest
        > =
          asked > limiter.capacity
            ? Effect.fail(overCapacity(asked))
            : traced.enabled
              ? traced.span(`tool ${endpoint.identifier}`, httpEffect)
              : httpEffect
        return Effect.flatMap(traced.span("rate-limit", limiter.take(caller.bucket, cost)), (decision) =>
          decided(decision, clock.currentTimeMillisUnsafe(), cost, request, next)
        )
      })
    )
  })
)
