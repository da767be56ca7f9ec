/**
 * Authentication, rate limiting and the body checks that must follow them, in one middleware so a request pays
 * for one. Order: key (401, or 429 for an address over its failed-auth budget), token (429), then Content-Type,
 * size and JSON shape (400/413), so an unauthenticated request with a broken body gets 401, never 400.
 */
import { HttpServerRequest } from "@effect/platform"
import { Clock, Effect, Layer, MetricLabel } from "effect"
import { Authorization } from "../Api.ts"
import { boolean, integer } from "../Config.ts"
import { InvalidRequest, RateLimited, Unauthorized } from "../Domain/Errors.ts"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
import { type RateLimitDecision, RateLimiter } from "../Services/RateLimiter.ts"
import { MAX_JSON_DEPTH, nestedDeeperThan, primeBody, readBody } from "./Body.ts"
import { clientAddress } from "./ClientAddress.ts"
import { authFailures, rateLimited as rateLimitedTotal } from "./Metrics.ts"
import { addResponseHeaders, noteCaller } from "./Edge.ts"

const BY_KEY = [MetricLabel.make("reason", "key")]
const BY_ADDRESS = [MetricLabel.make("reason", "address")]

const BEARER = /^bearer(?:[ \t]+(.*))?$/i
const REALM = 'Bearer realm="tools-api"'

const unauthorized = (request: HttpServerRequest.HttpServerRequest, keySent: boolean) =>
  addResponseHeaders(request, { "www-authenticate": keySent ? `${REALM}, error="invalid_token"` : REALM }).pipe(
    Effect.zipRight(
      Effect.fail(
        new Unauthorized({
          message: keySent
            ? "The API key is not valid; send a valid key as Authorization: Bearer <key>"
            : "Send an API key as Authorization: Bearer <key>"
        })
      )
    )
  )

const rateLimited = (request: HttpServerRequest.HttpServerRequest, decision: RateLimitDecision, message: string) =>
  addResponseHeaders(request, { "retry-after": String(decision.retryAfterSeconds) }).pipe(
    Effect.zipRight(Effect.fail(new RateLimited({ message })))
  )

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

    const rateLimitHeaders = (request: HttpServerRequest.HttpServerRequest, decision: RateLimitDecision) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const headers = {
          "ratelimit-policy": `"default";q=${decision.limit};w=60`,
          ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
          "x-ratelimit-limit": String(decision.limit),
          "x-ratelimit-remaining": String(decision.remaining),
          "x-ratelimit-reset": String(Math.ceil(now / 1000) + decision.resetSeconds)
        }
        return addResponseHeaders(request, headers)
      })

    /** The body, checked: JSON media type, within the size limit, a JSON object. HttpApi decodes it next, unparsed. */
    const checkBody = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const contentType = request.headers["content-type"]
        if (contentType !== undefined && !isJson(contentType)) {
          return yield* new InvalidRequest({ message: "Content-Type must be application/json" })
        }
        const text = yield* readBody(request, maxBodyBytes)
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          return yield* new InvalidRequest({ message: "The request body is not valid JSON" })
        }
        if (typeof body !== "object" || body === null || Array.isArray(body)) {
          return yield* new InvalidRequest({ message: "The request body must be a JSON object" })
        }
        if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
          const message = `The request body nests more than ${MAX_JSON_DEPTH} levels deep`
          return yield* new InvalidRequest({ message })
        }
        primeBody(request, text, body)
      })

    return {
      bearer: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const match = BEARER.exec(request.headers.authorization ?? "")
          const key = match?.[1]?.trim() ?? ""
          const caller = key === "" ? undefined : yield* keys.authenticate(key)
          if (caller === undefined || caller._tag === "None") {
            authFailures.unsafeUpdate(1, [])
            const decision = yield* limiter.recordAuthFailure(clientAddress(request, trustProxy))
            if (!decision.allowed) {
              rateLimitedTotal.unsafeUpdate(1, BY_ADDRESS)
              return yield* rateLimited(
                request,
                decision,
                `Too many failed authentications from this address; retry in ${seconds(decision.retryAfterSeconds)}`
              )
            }
            return yield* unauthorized(request, key !== "")
          }
          noteCaller(request, caller.value.id)
          const decision = yield* limiter.take(caller.value.bucket)
          yield* rateLimitHeaders(request, decision)
          if (!decision.allowed) {
            rateLimitedTotal.unsafeUpdate(1, BY_KEY)
            return yield* rateLimited(
              request,
              decision,
              `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${seconds(
                decision.retryAfterSeconds
              )}`
            )
          }
          yield* checkBody(request)
          return { id: caller.value.id }
        })
    }
  })
)
