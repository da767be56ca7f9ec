/** The caller's token bucket: a request's tokens or 429, then the verdict on its body; the headers on every answer. */
import { Context, Effect, Layer } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { Body, CurrentCaller, RateLimit } from "../Api.ts"
import { InvalidRequest, type PayloadTooLarge, RateLimited } from "../Errors.ts"
import { Metrics } from "../Observability/Metrics.ts"
import { TracedSteps } from "../Observability/Tracing.ts"
import * as RateLimitHeaders from "../RateLimit/Headers.ts"
import { type RateLimitDecision, RateLimiter } from "../RateLimit/Limiter.ts"
import { TokenCost } from "../Tools/TokenCost.ts"

/** Adds `headers` to this request's response, whatever it turns out to be. */
export const respondWith = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

type Refusal = InvalidRequest | PayloadTooLarge | RateLimited

export const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`

const costOf = (body: Body["Service"], endpoint: HttpApiEndpoint.Top): number => {
  if ("refused" in body) return 1
  const cost = Context.get(endpoint.annotations, TokenCost)(body.json)
  return Number.isInteger(cost) && cost > 1 ? cost : 1
}

export const RateLimitLive = Layer.effect(
  RateLimit,
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    const traced = yield* TracedSteps
    const metrics = yield* Metrics

    return RateLimit.of((httpEffect, { endpoint }) =>
      Effect.contextWith((context: Context.Context<CurrentCaller | Body>) => {
        const body = Context.get(context, Body)
        const caller = Context.get(context, CurrentCaller)
        const capacity = caller.limit ?? limiter.capacity
        const asked = costOf(body, endpoint)
        const cost = asked > capacity ? 1 : asked
        // an error is encoded after this step: its headers go through the framework's pre-response hook
        const decided = (decision: RateLimitDecision, now: number) => {
          const headers = RateLimitHeaders.headersOf(decision, now)
          metrics.countKeyRequest(caller.id, decision.allowed)
          const refuse = (error: Refusal) =>
            Effect.andThen(respondWith(headers), Effect.fail<Effect.Error<typeof httpEffect> | Refusal>(error))
          if (!decision.allowed) {
            metrics.countRateLimited("key")
            const needs = cost === 1 ? "" : ` (this request needs ${cost})`
            const message = `Rate limit of ${decision.limit} requests per minute exceeded${needs}; retry in ${seconds(decision.retryAfterSeconds)}`
            return refuse(new RateLimited({ message, retryAfterSeconds: decision.retryAfterSeconds }))
          }
          if ("refused" in body) return refuse(body.refused)
          if (asked > capacity) {
            const message = `This request asks for ${asked} user agents; a key may send at most ${capacity} at once`
            return refuse(new InvalidRequest({ message }))
          }
          return Effect.matchCauseEffect(traced.span(`tool ${endpoint.identifier}`, httpEffect), {
            onSuccess: (response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)),
            onFailure: (cause) => Effect.andThen(respondWith(headers), Effect.failCause(cause))
          })
        }
        const take = limiter.take(caller.bucket, cost, caller.limit)
        return Effect.flatMap(traced.span("rate-limit", take), (decision) =>
          Effect.clockWith((clock) => decided(decision, clock.currentTimeMillisUnsafe()))
        )
      })
    )
  })
)
