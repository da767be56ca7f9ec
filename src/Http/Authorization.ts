/**
 * The security middleware: key (401, or 429 for an address over its failed-auth budget), token (429), then the
 * body checks (400/413), so an unauthenticated request with a broken body gets 401, never 400. Every `/v1` answer
 * to a known caller carries the rate-limit headers.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { Authorization, Caller } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { type InvalidRequest, type PayloadTooLarge, RateLimited, Unauthorized } from "../Domain/Errors.ts"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
import { type RateLimitDecision, RateLimiter } from "../RateLimit/RateLimiter.ts"
import { checkBody } from "./Body.ts"
import { clientAddress, PeerAddress } from "./ClientAddress.ts"
import { countAuthFailure, countRateLimited } from "./Metrics.ts"
import { noteCaller, noteHeaders } from "./RequestNotes.ts"

/** Why a request goes no further than this middleware. */
type Rejected = Unauthorized | RateLimited | InvalidRequest | PayloadTooLarge

const BEARER = /^bearer(?:[ \t]+(.*))?$/i
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
      peer: string | undefined,
      keySent: boolean
    ): Effect.Effect<never, Unauthorized | RateLimited> => {
      countAuthFailure()
      return Effect.flatMap(
        limiter.recordAuthFailure(clientAddress(request, peer, trustProxy)),
        (decision): Effect.Effect<never, Unauthorized | RateLimited> => {
          if (decision.allowed) {
            noteHeaders(request, { "www-authenticate": keySent ? `${REALM}, error="invalid_token"` : REALM })
            const message = keySent
              ? "The API key is not valid; send a valid key as Authorization: Bearer <key>"
              : "Send an API key as Authorization: Bearer <key>"
            return Effect.fail(new Unauthorized({ message }))
          }
          countRateLimited("address")
          noteHeaders(request, { "retry-after": String(decision.retryAfterSeconds) })
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

    /** A known caller: one token (429 without), the rate-limit headers either way, then the body checks. */
    const admit = (
      request: HttpServerRequest.HttpServerRequest,
      caller: { readonly id: string; readonly bucket: string }
    ): Effect.Effect<void, RateLimited | InvalidRequest | PayloadTooLarge> => {
      noteCaller(request, caller.id)
      return Effect.flatMap(limiter.take(caller.bucket), (decision) =>
        Effect.flatMap(
          Clock.currentTimeMillis,
          (now): Effect.Effect<void, RateLimited | InvalidRequest | PayloadTooLarge> => {
            noteHeaders(request, rateLimitHeaders(decision, now))
            if (decision.allowed) return checkBody(request, maxBodyBytes)
            countRateLimited("key")
            noteHeaders(request, { "retry-after": String(decision.retryAfterSeconds) })
            const retry = seconds(decision.retryAfterSeconds)
            return Effect.fail(
              new RateLimited({
                message: `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retry}`,
                retryAfterSeconds: decision.retryAfterSeconds
              })
            )
          }
        )
      )
    }

    return Authorization.of({
      // The framework's credential drops the scheme's case rules; the header is read here, as the contract says.
      bearer: (httpEffect) =>
        Effect.withFiber(
          (fiber): Effect.Effect<HttpServerResponse.HttpServerResponse, Effect.Error<typeof httpEffect> | Rejected> => {
            const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
            const key = BEARER.exec(request.headers.authorization ?? "")?.[1]?.trim() ?? ""
            const caller = key === "" ? undefined : keys.authenticate(key)
            if (caller === undefined) return refuse(request, Context.get(fiber.context, PeerAddress), key !== "")
            return Effect.flatMap(admit(request, caller), () =>
              Effect.provideService(httpEffect, Caller, { id: caller.id })
            )
          }
        )
    })
  })
)
