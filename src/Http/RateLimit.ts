/** The caller's token bucket: the request's one token or 429, a batch's further tokens for its handler; headers on every answer. */
import { Context, Effect, Layer } from "effect"
import { BatchTokens, CurrentCaller, RateLimit } from "../Api.ts"
import { InvalidRequest, RateLimited } from "../Errors.ts"
import { Metrics } from "../Observability/Metrics.ts"
import * as Tracing from "../Observability/Tracing.ts"
import * as RateLimitHeaders from "../RateLimit/Headers.ts"
import { RateLimiter } from "../RateLimit/Limiter.ts"
import { respondWith } from "./RequestLog.ts"

export const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`

export const RateLimitLive = Layer.effect(
  RateLimit,
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    const metrics = yield* Metrics

    // `needs`: what the message adds for a batch's further tokens
    const take = (caller: CurrentCaller["Service"], tokens: number, needs = "") =>
      Effect.flatMap(Tracing.withSpan(limiter.take(caller.bucket, tokens, caller.limit), "rate-limit"), (decision) =>
        Effect.clockWith((clock) => {
          metrics.countKeyRequest(caller.id, decision.allowed)
          const headers = respondWith(RateLimitHeaders.headersOf(decision, clock.currentTimeMillisUnsafe()))
          if (decision.allowed) return headers
          metrics.countRateLimited("key")
          const message = `Rate limit of ${decision.limit} requests per minute exceeded${needs}; retry in ${seconds(decision.retryAfterSeconds)}`
          return Effect.andThen(headers, new RateLimited({ message, retryAfterSeconds: decision.retryAfterSeconds }))
        })
      )

    const batchTokens = (caller: CurrentCaller["Service"]) => {
      const capacity = caller.limit ?? limiter.capacity
      return BatchTokens.of({
        take: (size) => {
          if (size > capacity) {
            const message = `This request asks for ${size} user agents; a key may send at most ${capacity} at once`
            return Effect.fail(new InvalidRequest({ message }))
          }
          return size > 1 ? take(caller, size - 1, ` (this request needs ${size})`) : Effect.void
        }
      })
    }

    return RateLimit.of((httpEffect, { endpoint }) =>
      Effect.contextWith((context: Context.Context<CurrentCaller>) => {
        const caller = Context.get(context, CurrentCaller)
        const handled = Tracing.withSpan(httpEffect, `tool ${endpoint.identifier}`)
        return Effect.andThen(take(caller, 1), Effect.provideService(handled, BatchTokens, batchTokens(caller)))
      })
    )
  })
)
