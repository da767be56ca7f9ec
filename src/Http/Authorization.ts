/**
 * The security middleware: key (401, or 429 for an address over its failed-auth budget), token (429), then the
 * body checks (400/413), so an unauthenticated request with a broken body gets 401, never 400. Every `/v1` answer
 * to a known caller carries the rate-limit headers.
 */
import { Clock, Context, Effect, type Fiber, Layer, Redacted, type Tracer } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { Authorization } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { type InvalidRequest, type PayloadTooLarge, RateLimited, Unauthorized } from "../Errors.ts"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
import { type RateLimitDecision, RateLimiter } from "../RateLimit/RateLimiter.ts"
import { checkBody } from "./Body.ts"
import { clientAddress, PeerAddress } from "./ClientAddress.ts"
import { countAuthFailure, countRateLimited } from "../Observability/Metrics.ts"
import { addHeaders, type Note, RequestNote } from "./RequestNote.ts"
import { annotateCaller, childSpan, requestSpan } from "../Observability/Tracing.ts"

/** Why a request goes no further than this middleware. */
type Rejected = Unauthorized | RateLimited | InvalidRequest | PayloadTooLarge

const REALM = 'Bearer realm="tools-api"'

const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`

const rateLimitHeaders = (decision: RateLimitDecision, now: number) => ({
  "ratelimit-policy": `"default";q=${decision.limit};w=60`,
  ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
  "x-ratelimit-limit": String(decision.limit),
  "x-ratelimit-remaining": String(decision.remaining),
  "x-ratelimit-reset": String(Math.ceil(now / 1000) + decision.resetSeconds)
})

export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    const limiter = yield* RateLimiter
    const { maxBodyBytes, trustProxy } = yield* AppConfig

    /** No usable key: 401, or 429 once the client's address is over its failed-authentication budget. */
    const refuse = (
      request: HttpServerRequest.HttpServerRequest,
      note: Note,
      peer: string | undefined,
      keySent: boolean,
      span: Tracer.Span | undefined
    ): Effect.Effect<never, Unauthorized | RateLimited> => {
      countAuthFailure()
      return Effect.flatMap(
        childSpan(span, "rate-limit auth-failure", limiter.recordAuthFailure(clientAddress(request, peer, trustProxy))),
        (decision): Effect.Effect<never, Unauthorized | RateLimited> => {
          if (decision.allowed) {
            addHeaders(note, { "www-authenticate": keySent ? `${REALM}, error="invalid_token"` : REALM })
            const message = keySent
              ? "The API key is not valid; send a valid key as Authorization: Bearer <key>"
              : "Send an API key as Authorization: Bearer <key>"
            return Effect.fail(new Unauthorized({ message }))
          }
          countRateLimited("address")
          addHeaders(note, { "retry-after": String(decision.retryAfterSeconds) })
          const retry = seconds(decision.retryAfterSeconds)
          return Effect.fail(
            new RateLimited({
              message: `Too many failed authentications from this address; retry in ${retry}`,
              retryAfterSeconds: decision.retryAfterSeconds
            })
          )
        }
      )
    }

    /** The limiter's answer: the rate-limit headers either way; 429 without a token, else the body checks and `tool`. */
    const decided = <A, E, R>(
      request: HttpServerRequest.HttpServerRequest,
      note: Note,
      decision: RateLimitDecision,
      now: number,
      tool: Effect.Effect<A, E, R>
    ): Effect.Effect<A, E | RateLimited | InvalidRequest | PayloadTooLarge, R> => {
      addHeaders(note, rateLimitHeaders(decision, now))
      if (decision.allowed) return Effect.andThen(checkBody(request, maxBodyBytes), tool)
      countRateLimited("key")
      addHeaders(note, { "retry-after": String(decision.retryAfterSeconds) })
      const retry = seconds(decision.retryAfterSeconds)
      return Effect.fail(
        new RateLimited({
          message: `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retry}`,
          retryAfterSeconds: decision.retryAfterSeconds
        })
      )
    }

    /**
     * A known caller: one token, then `decided`. With the buckets in memory and no span to record it in, the take is
     * a plain call; otherwise it is the limiter's Effect, in its own span.
     */
    const admit = <A, E, R>(
      fiber: Fiber.Fiber<unknown, unknown>,
      request: HttpServerRequest.HttpServerRequest,
      note: Note,
      caller: { readonly id: string; readonly bucket: string },
      span: Tracer.Span | undefined,
      tool: Effect.Effect<A, E, R>
    ): Effect.Effect<A, E | RateLimited | InvalidRequest | PayloadTooLarge, R> => {
      note.keyId = caller.id
      annotateCaller(span, caller.id)
      const clock = fiber.getRef(Clock.Clock)
      if (limiter.takeNow !== undefined && span === undefined) {
        const now = clock.currentTimeMillisUnsafe()
        return decided(request, note, limiter.takeNow(caller.bucket, now), now, tool)
      }
      return Effect.flatMap(childSpan(span, "rate-limit", limiter.take(caller.bucket)), (decision) =>
        decided(request, note, decision, clock.currentTimeMillisUnsafe(), tool)
      )
    }

    return Authorization.of({
      // The framework reads the credential (the scheme in any case, as RFC 9110 and the contract say); an empty one
      // is no key.
      bearer: (httpEffect, { credential, endpoint }) =>
        Effect.withFiber(
          (fiber): Effect.Effect<HttpServerResponse.HttpServerResponse, Effect.Error<typeof httpEffect> | Rejected> => {
            const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
            const note = Context.getUnsafe(fiber.context, RequestNote)
            const span = requestSpan(fiber)
            const key = Redacted.value(credential)
            const caller = key === "" ? undefined : keys.authenticate(key)
            if (caller === undefined) {
              return refuse(request, note, Context.get(fiber.context, PeerAddress)(request), key !== "", span)
            }
            const tool = span === undefined ? httpEffect : childSpan(span, `tool ${endpoint.identifier}`, httpEffect)
            return admit(fiber, request, note, caller, span, tool)
          }
        )
    })
  })
)
