// Around the router, so every response passes here: request id, 503 when draining, the envelope, headers, metrics, log.
import { Cause, Context, Effect, Schema, type Types } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { AppConfig } from "../Config.ts"
import {
  InternalError,
  InternalErrorWire,
  MethodNotAllowed,
  MethodNotAllowedWire,
  NotFound,
  NotFoundWire,
  ServiceUnavailable,
  ServiceUnavailableWire
} from "../Errors.ts"
import { Metrics } from "../Observability/Metrics.ts"
import { Drain } from "../Services/Drain.ts"
import { clip } from "./Clip.ts"
import { corsHeaders, preflight } from "./Cors.ts"
import { CurrentRequest, logRequest, makeCurrentRequest } from "./RequestLog.ts"
import { ApiRoutes, pathOf, type Routes } from "./Routes.ts"
import { withHeaders } from "./WithHeaders.ts"

const envelope = <S extends Schema.Codec<unknown, unknown>>(wire: S, status: number, error: S["Type"]) =>
  HttpServerResponse.text(JSON.stringify(Schema.encodeSync(wire)(error)), { status, contentType: "application/json" })

const draining = envelope(
  ServiceUnavailableWire,
  503,
  new ServiceUnavailable({ message: "The server is shutting down; retry on another instance" })
).pipe(HttpServerResponse.setHeader("connection", "close"))

const internal = envelope(
  InternalErrorWire,
  500,
  new InternalError({ message: "Something went wrong on our side; the request id identifies it in our logs" })
)

const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const supplied = request.headers["x-request-id"]
  return supplied !== undefined && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID()
}

/**
 * A body left unread (refused before it, or cut off as too large) is not drained: the answer closes the connection,
 * so a client cannot make the server take in a body it refused, however long it says it is.
 */
const leavesBodyUnread = (request: HttpServerRequest.HttpServerRequest, status: number): boolean => {
  const length = request.headers["content-length"]
  const hasBody = request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")
  const read = request.source instanceof Request && request.source.bodyUsed
  return hasBody && (!read || status === 413)
}

const routeNotFound = (routes: Routes, method: string, path: string): HttpServerResponse.HttpServerResponse => {
  const methods = routes.methodsOf(path)
  if (methods === undefined || methods.includes(method)) {
    return envelope(NotFoundWire, 404, new NotFound({ message: `No route for ${clip(path)}` }))
  }
  const allow = methods.join(", ")
  const message = `${method} is not allowed on ${clip(path)}; use ${allow}`
  return envelope(MethodNotAllowedWire, 405, new MethodNotAllowed({ message })).pipe(
    HttpServerResponse.setHeader("allow", allow)
  )
}

const answer = (
  routes: Routes,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const notFound = cause.reasons.some(
    (r) => r._tag === "Fail" && HttpServerError.isHttpServerError(r.error) && r.error.reason._tag === "RouteNotFound"
  )
  if (notFound) return Effect.succeed(routeNotFound(routes, request.method, pathOf(request.url)))
  if (Cause.hasInterruptsOnly(cause)) {
    const byClient = cause.reasons.some(
      (r) => r._tag === "Interrupt" && r.annotations.has(HttpServerError.ClientAbort.key)
    )
    // A client that went away is sent nothing; a request cut by shutdown gets the draining answer.
    return Effect.succeed(byClient ? HttpServerResponse.empty({ status: 499 }) : draining)
  }
  // The one log line besides the request's own that must name the request: the id ties it to the 500 answered.
  return Effect.as(
    Effect.logError("Unhandled defect", cause).pipe(Effect.annotateLogs("requestId", requestId)),
    internal
  )
}

export const EdgeLive = HttpRouter.middleware(
  Effect.gen(function* () {
    const drain = yield* Drain
    const routes = yield* ApiRoutes
    const { corsOrigins } = yield* AppConfig
    const metrics = yield* Metrics

    return (
      httpEffect
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
      Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const request = Context.get(context, HttpServerRequest.HttpServerRequest)
        const facts = makeCurrentRequest(requestIdOf(request), performance.now())
        const requestId = facts.id
        const cors = corsOrigins === undefined ? undefined : corsHeaders(corsOrigins, request.headers.origin)

        const finish = (
          response: HttpServerResponse.HttpServerResponse,
          withCors: Readonly<Record<string, string>> | undefined
        ) => {
          const durationMs = performance.now() - facts.startedAt
          const path = pathOf(request.url)
          metrics.observe(routes.routeOf(path) ?? "unmatched", response.status, durationMs)
          // a response that sets its own cache lifetime keeps it (/docs, /openapi.json); every other one is no-store
          const headers: Record<string, string> = {
            ...facts.headers(),
            "x-content-type-options": "nosniff",
            "cache-control": response.headers["cache-control"] ?? "no-store",
            "x-request-id": requestId
          }
          if (leavesBodyUnread(request, response.status)) headers.connection = "close"
          if (withCors !== undefined) {
            Object.assign(headers, withCors)
            // a cached answer that varies by encoding varies by origin as well: both go in its Vary
            if (response.headers.vary !== undefined) headers.vary = `${response.headers.vary}, Origin`
          }
          return Effect.as(
            logRequest(request, facts, path, response.status, durationMs),
            withHeaders(response, headers)
          )
        }

        if (drain.isDraining()) return finish(draining, cors)
        const answered =
          cors === undefined
            ? undefined
            : preflight(corsOrigins, routes, request.method, pathOf(request.url), request.headers)
        if (answered !== undefined) return finish(answered, undefined)
        // Counted until its fiber ends; at the drain deadline a request still running is interrupted and answered 503.
        return Effect.andThen(
          drain.track,
          Effect.matchCauseEffect(Effect.provideService(httpEffect, CurrentRequest, facts), {
            onSuccess: (response) => finish(response, cors),
            onFailure: (cause) =>
              Effect.flatMap(answer(routes, request, requestId, cause), (response) => finish(response, cors))
          })
        )
      })
  }),
  { global: true }
)
