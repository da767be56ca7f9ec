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

// `tokens` from the caller's bucket, its headers on the answer; `needs`: what the message adds for a batch's tokens.
const makeTake = Effect.gen(function* () {
  const limiter = yield* RateLimiter
  const metrics = yield* Metrics
  const withSpan = yield* Tracing.withSpan
  return (caller: CurrentCaller["Service"], tokens: number, needs = "") =>
    Effect.flatMap(withSpan(limiter.take(caller.bucket, tokens, caller.limit), "rate-limit"), (decision) =>
      Effect.clockWith((clock) => {
        metrics.countKeyRequest(caller.id, decision.allowed)
        const headers = respondWith(RateLimitHeaders.headersOf(decision, clock.currentTimeMillisUnsafe()))
        if (decision.allowed) return headers
        metrics.countRateLimited("key")
        const message = `Rate limit of ${decision.limit} requests per minute exceeded${needs}; retry in ${seconds(decision.retryAfterSeconds)}`
        return Effect.andThen(headers, new RateLimited({ message, retryAfterSeconds: decision.retryAfterSeconds }))
      })
    )
})

export const RateLimitLive = Layer.effect(
  RateLimit,
  Effect.gen(function* () {
    const take = yield* makeTake
    const withSpan = yield* Tracing.withSpan
    return RateLimit.of((httpEffect, { endpoint }) =>
      Effect.contextWith((context: Context.Context<CurrentCaller>) =>
        Effect.andThen(
          take(Context.get(context, CurrentCaller), 1),
          withSpan(httpEffect, `tool ${endpoint.identifier}`)
        )
      )
    )
  })
)

export const BatchTokensLive = Layer.effect(
  BatchTokens,
  Effect.gen(function* () {
    const take = yield* makeTake
    const { capacity } = yield* RateLimiter
    return BatchTokens.of({
      take: (size) =>
        Effect.contextWith((context: Context.Context<CurrentCaller>): ReturnType<BatchTokens["Service"]["take"]> => {
          const caller = Context.get(context, CurrentCaller)
          const most = caller.limit ?? capacity
          if (size > most) {
            const message = `This request asks for ${size} user agents; a key may send at most ${most} at once`
            return Effect.fail(new InvalidRequest({ message }))
          }
          return size > 1 ? take(caller, size - 1, ` (this request needs ${size})`) : Effect.void
        })
    })
  })
)
