// The API key: a known one gives its caller; none is a 401, or a 429 past the address's failed-authentication budget.
import { Context, Effect, Layer, Option, Redacted, References } from "effect"
import { HttpServerRequest } from "effect/http"
import { Authentication, CurrentCaller } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { RateLimited, Unauthorized } from "../Errors.ts"
import { Metrics } from "../Observability/Metrics.ts"
import * as Tracing from "../Observability/Tracing.ts"
import * as RateLimitHeaders from "../RateLimit/Headers.ts"
import { RateLimiter } from "../RateLimit/Limiter.ts"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
import { clientAddress, PeerAddress } from "./ClientAddress.ts"
import { seconds } from "./RateLimit.ts"
import { CurrentRequest, respondWith } from "./RequestLog.ts"

const REALM = 'Bearer realm="tools-api"'

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    const limiter = yield* RateLimiter
    const { trustProxy } = yield* AppConfig
    const metrics = yield* Metrics
    const withSpan = yield* Tracing.withSpan
    const tracing = yield* References.TracerEnabled

    const refuse = (keySent: boolean) =>
      Effect.gen(function* () {
        metrics.countAuthFailure()
        const request = yield* HttpServerRequest.HttpServerRequest
        const peer = (yield* PeerAddress)(request)
        const address = clientAddress(request, peer, trustProxy)
        const decision = yield* withSpan(limiter.recordAuthFailure(address), "rate-limit auth-failure")
        if (decision.allowed) {
          yield* respondWith({ "www-authenticate": keySent ? `${REALM}, error="invalid_token"` : REALM })
          const message = keySent
            ? "The API key is not valid; send a valid key as Authorization: Bearer <key>"
            : "Send an API key as Authorization: Bearer <key>"
          return yield* new Unauthorized({ message })
        }
        metrics.countRateLimited("address")
        yield* respondWith({ [RateLimitHeaders.RETRY_AFTER.toLowerCase()]: String(decision.retryAfterSeconds) })
        return yield* new RateLimited({
          message: `Too many failed authentications from this address; retry in ${seconds(decision.retryAfterSeconds)}`,
          retryAfterSeconds: decision.retryAfterSeconds
        })
      })

    return Authentication.of({
      // the framework reads the scheme in any case, as RFC 9110 and the contract say
      bearer: (httpEffect, { credential }) => {
        const key = Redacted.value(credential)
        const caller = key === "" ? undefined : keys.authenticate(key)
        if (caller === undefined) return refuse(key !== "")
        const annotated = tracing
          ? Effect.andThen(Effect.annotateCurrentSpan("tools_api.key_id", caller.id), httpEffect)
          : httpEffect
        const admitted = Effect.provideService(annotated, CurrentCaller, caller)
        // the edge provides the request's facts; a test of this middleware alone runs without them
        return Effect.contextWith((context: Context.Context<never>) => {
          const facts = Context.getOption(context, CurrentRequest)
          if (Option.isSome(facts)) facts.value.noteCaller(caller.id)
          return admitted
        })
      }
    })
  })
)
