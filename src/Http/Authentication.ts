/**
 * The API key (the `Authentication` middleware of `Api.ts`): a known key provides its caller to the steps after it;
 * no usable key is a 401 with `WWW-Authenticate`, or a 429 with `Retry-After` once the client's address is over
 * its failed-authentication budget. Runs before the body is read, so a request without a key never gets a 400.
 */
import { Effect, Layer, Redacted } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Authentication, CurrentCaller } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { RateLimited, Unauthorized } from "../Errors.ts"
import { countAuthFailure, countRateLimited } from "../Observability/Metrics.ts"
import { TracedSteps } from "../Observability/Tracing.ts"
import * as RateLimitHeaders from "../RateLimit/Headers.ts"
import { RateLimiter } from "../RateLimit/Limiter.ts"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
import { clientAddress, PeerAddress } from "./ClientAddress.ts"

const REALM = 'Bearer realm="tools-api"'

/**
 * The bearer credential as the framework's `HttpApiSecurity.bearer` reads it for this middleware (RFC 9110: the
 * scheme in any case, then one or more spaces), without an Effect: the edge's log line names the caller by it.
 */
export const bearerCredential = (authorization: string | undefined): string => {
  if (authorization === undefined || authorization.length <= 7 || authorization.charCodeAt(6) !== 32) return ""
  if (authorization.slice(0, 6).toLowerCase() !== "bearer") return ""
  let start = 7
  while (authorization.charCodeAt(start) === 32) start++
  return authorization.slice(start)
}

export const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`

/** Adds `headers` to this request's response, whatever it turns out to be (an error's included). */
export const respondWith = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    const limiter = yield* RateLimiter
    const { trustProxy } = yield* AppConfig
    const traced = yield* TracedSteps

    /** No usable key: 401, or 429 once the client's address is over its failed-authentication budget. */
    const refuse = (keySent: boolean) =>
      Effect.gen(function* () {
        countAuthFailure()
        const request = yield* HttpServerRequest.HttpServerRequest
        const peer = (yield* PeerAddress)(request)
        const decision = yield* traced.span(
          "rate-limit auth-failure",
          limiter.recordAuthFailure(clientAddress(request, peer, trustProxy))
        )
        if (decision.allowed) {
          yield* respondWith({ "www-authenticate": keySent ? `${REALM}, error="invalid_token"` : REALM })
          const message = keySent
            ? "The API key is not valid; send a valid key as Authorization: Bearer <key>"
            : "Send an API key as Authorization: Bearer <key>"
          return yield* new Unauthorized({ message })
        }
        countRateLimited("address")
        yield* respondWith({ [RateLimitHeaders.RETRY_AFTER.toLowerCase()]: String(decision.retryAfterSeconds) })
        return yield* new RateLimited({
          message: `Too many failed authentications from this address; retry in ${seconds(decision.retryAfterSeconds)}`,
          retryAfterSeconds: decision.retryAfterSeconds
        })
      })

    return Authentication.of({
      // The framework reads the credential (the scheme in any case, as RFC 9110 and the contract say); an empty one
      // is no key.
      bearer: (httpEffect, { credential }) => {
        const key = Redacted.value(credential)
        const caller = key === "" ? undefined : keys.authenticate(key)
        if (caller === undefined) return refuse(key !== "")
        return Effect.provideService(traced.caller(caller.id, httpEffect), CurrentCaller, caller)
      }
    })
  })
)
