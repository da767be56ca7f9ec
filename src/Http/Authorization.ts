/**
 * Authentication, rate limiting and the body checks that must follow them, in one middleware so a request pays
 * for one. Order: key (401, or 429 for an address over its failed-auth budget), token (429), then Content-Type,
 * size and JSON shape (400/413), so an unauthenticated request with a broken body gets 401, never 400.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Clock, Effect, Layer, MetricLabel } from "effect"
import { Authorization } from "../Api.ts"
import { boolean, integer } from "../Config.ts"
import { InvalidRequest, type PayloadTooLarge, RateLimited, Unauthorized } from "../Domain/Errors.ts"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
import { type RateLimitDecision, RateLimiter } from "../Services/RateLimiter.ts"
import { MAX_JSON_DEPTH, nestedDeeperThan, primeBody, readBody } from "./Body.ts"
import { clientAddress } from "./ClientAddress.ts"
import { authFailures, rateLimited as rateLimitedTotal } from "./Metrics.ts"
import { noteCaller, withResponseHeaders } from "./Edge.ts"

const BY_KEY = [MetricLabel.make("reason", "key")]
const BY_ADDRESS = [MetricLabel.make("reason", "address")]

const BEARER = /^bearer(?:[ \t]+(.*))?$/i
const REALM = 'Bearer realm="tools-api"'

const unauthorized = (request: HttpServerRequest.HttpServerRequest, keySent: boolean) =>
  withResponseHeaders(
    request,
    { "www-authenticate": keySent ? `${REALM}, error="invalid_token"` : REALM },
    Effect.fail(
      new Unauthorized({
        message: keySent
          ? "The API key is not valid; send a valid key as Authorization: Bearer <key>"
          : "Send an API key as Authorization: Bearer <key>"
      })
    )
  )

const rateLimited = (request: HttpServerRequest.HttpServerRequest, decision: RateLimitDecision, message: string) =>
  withResponseHeaders(
    request,
    { "retry-after": String(decision.retryAfterSeconds) },
    Effect.fail(new RateLimited({ message }))
  )

/** Why a known caller's request goes no further: out of tokens, or a body that is not a JSON object in bounds. */
type Rejected = RateLimited | InvalidRequest | PayloadTooLarge

const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`

const isJson = (contentType: string): boolean => {
  const semicolon = contentType.indexOf(";")
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === "application/json"
}

export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    const limiter = yield* RateLimiter
    const trustProxy = yield* boolean("TRUST_PROXY", false)
    const maxBodyBytes = yield* integer("MAX_BODY_BYTES", 16_384, 1, 1 << 30)

    const rateLimitHeaders = (decision: RateLimitDecision, now: number) => ({
      "ratelimit-policy": `"default";q=${decision.limit};w=60`,
      ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
      "x-ratelimit-limit": String(decision.limit),
      "x-ratelimit-remaining": String(decision.remaining),
      "x-ratelimit-reset": String(Math.ceil(now / 1000) + decision.resetSeconds)
    })

    // Plain combinators rather than Effect.gen below, and as few steps as the work allows: this runs on every
    // request, and each step of an Effect costs the fiber's run loop a little.

    /**
     * The body, checked: JSON media type, within the size limit, a JSON object; then `caller`. HttpApi decodes the
     * body next, from the parse made here.
     */
    const checkBody = <A>(
      request: HttpServerRequest.HttpServerRequest,
      caller: A
    ): Effect.Effect<A, InvalidRequest | PayloadTooLarge> => {
      const contentType = request.headers["content-type"]
      if (contentType !== undefined && !isJson(contentType)) {
        return Effect.fail(new InvalidRequest({ message: "Content-Type must be application/json" }))
      }
      return Effect.flatMap(readBody(request, maxBodyBytes), (text) => {
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          return Effect.fail(new InvalidRequest({ message: "The request body is not valid JSON" }))
        }
        if (typeof body !== "object" || body === null || Array.isArray(body)) {
          return Effect.fail(new InvalidRequest({ message: "The request body must be a JSON object" }))
        }
        if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
          const message = `The request body nests more than ${MAX_JSON_DEPTH} levels deep`
          return Effect.fail(new InvalidRequest({ message }))
        }
        primeBody(request, text, body)
        return Effect.succeed(caller)
      })
    }

    /** No usable key: 401, or 429 once the client's address is over its failed-authentication budget. */
    const refuse = (
      request: HttpServerRequest.HttpServerRequest,
      keySent: boolean
    ): Effect.Effect<never, Unauthorized | RateLimited> => {
      authFailures.unsafeUpdate(1, [])
      return Effect.flatMap(
        limiter.recordAuthFailure(clientAddress(request, trustProxy)),
        (decision): Effect.Effect<never, Unauthorized | RateLimited> => {
          if (decision.allowed) return unauthorized(request, keySent)
          rateLimitedTotal.unsafeUpdate(1, BY_ADDRESS)
          return rateLimited(
            request,
            decision,
            `Too many failed authentications from this address; retry in ${seconds(decision.retryAfterSeconds)}`
          )
        }
      )
    }

    /** A known caller: one token (429 without), the rate-limit headers either way, then the body checks. */
    const admit = (
      request: HttpServerRequest.HttpServerRequest,
      caller: { readonly id: string; readonly bucket: string }
    ): Effect.Effect<{ readonly id: string }, Rejected> => {
      noteCaller(request, caller.id)
      return Effect.flatMap(limiter.take(caller.bucket), (decision) =>
        Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<{ readonly id: string }, Rejected> => {
          const headers = rateLimitHeaders(decision, now)
          if (decision.allowed) return withResponseHeaders(request, headers, checkBody(request, { id: caller.id }))
          rateLimitedTotal.unsafeUpdate(1, BY_KEY)
          return withResponseHeaders(
            request,
            headers,
            rateLimited(
              request,
              decision,
              `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${seconds(decision.retryAfterSeconds)}`
            )
          )
        })
      )
    }

    return {
      bearer: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const key = BEARER.exec(request.headers.authorization ?? "")?.[1]?.trim() ?? ""
          if (key === "") return refuse(request, false)
          return Effect.flatMap(
            keys.authenticate(key),
            (caller): Effect.Effect<{ readonly id: string }, Unauthorized | Rejected> =>
              caller._tag === "None" ? refuse(request, true) : admit(request, caller.value)
          )
        })
    }
  })
)
