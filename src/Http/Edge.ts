/**
 * The outermost middleware, around the router: every response, routed or not, passes here. It gives each request
 * its id, answers 503 while draining, turns what the router and the handlers leave unanswered into the contract's
 * errors (404, 405 with `Allow`, 500 for a defect, logged), adds the headers every response carries, counts and
 * logs the request.
 */
import { Cause, Context, Effect, type Fiber, Schema, type Types } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiKeyStore } from "../Services/ApiKeyStore.ts"
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
import { AppConfig } from "../Config.ts"
import { Drain } from "../Services/Drain.ts"
import { clip } from "./Clip.ts"
import { corsHeaders, preflight } from "./Cors.ts"
import { observe } from "../Observability/Metrics.ts"
import { type Arrival, arrive } from "./Arrival.ts"
import { withHeaders } from "./WithHeaders.ts"
import { bearerCredential } from "./Authentication.ts"
import { ApiRoutes, pathOf, type Routes } from "./Routes.ts"

const envelope = <S extends Schema.Codec<any, any>>(wire: S, status: number, error: S["Type"]) =>
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

/** No route for the path: 404, or 405 with `Allow` when the path has other methods. */
const routeNotFound = (routes: Routes, method: string, path: string): HttpServerResponse.HttpServerResponse => {
  const route = routes.routeOf(path)
  const methods = route === undefined ? undefined : routes.known.get(route)
  if (methods === undefined || methods.includes(method)) {
    return envelope(NotFoundWire, 404, new NotFound({ message: `No route for ${clip(path)}` }))
  }
  const allow = methods.join(", ")
  const message = `${method} is not allowed on ${clip(path)}; use ${allow}`
  return envelope(MethodNotAllowedWire, 405, new MethodNotAllowed({ message })).pipe(
    HttpServerResponse.setHeader("allow", allow)
  )
}

const isRouteNotFound = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some(
    (reason) =>
      reason._tag === "Fail" &&
      HttpServerError.isHttpServerError(reason.error) &&
      reason.error.reason._tag === "RouteNotFound"
  )

/** What the router or a handler left unanswered, as the contract's answer. */
const answer = (
  routes: Routes,
  request: HttpServerRequest.HttpServerRequest,
  arrival: Arrival,
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  if (isRouteNotFound(cause)) return Effect.succeed(routeNotFound(routes, request.method, pathOf(request.url)))
  if (Cause.hasInterruptsOnly(cause)) {
    const byClient = cause.reasons.some(
      (r) => r._tag === "Interrupt" && r.annotations.has(HttpServerError.ClientAbort.key)
    )
    // A client that went away is sent nothing; a request cut by shutdown gets the draining answer.
    return Effect.succeed(byClient ? HttpServerResponse.empty({ status: 499 }) : draining)
  }
  // The one log line besides the request's own that must name the request: the id ties it to the 500 answered.
  return Effect.as(
    Effect.logError("Unhandled defect", cause).pipe(Effect.annotateLogs("requestId", arrival.requestId)),
    internal
  )
}

/**
 * The answer as sent, synchronously: counted, logged (one line through the fiber's loggers), with the headers every
 * response carries set in one step.
 */
const finish = (
  fiber: Fiber.Fiber<unknown, unknown>,
  routes: Routes,
  request: HttpServerRequest.HttpServerRequest,
  arrival: Arrival,
  keyId: string | undefined,
  response: HttpServerResponse.HttpServerResponse,
  cors: Readonly<Record<string, string>> | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const durationMs = performance.now() - arrival.started
  const path = pathOf(request.url)
  observe(routes.routeOf(path) ?? "unmatched", response.status, durationMs)
  const fields: Record<string, string | number> = {
    method: request.method,
    path: clip(path),
    status: response.status,
    durationMs: Math.round(durationMs * 100) / 100,
    requestId: arrival.requestId
  }
  if (keyId !== undefined) fields.keyId = keyId
  const logged = Effect.annotateLogs(Effect.logInfo("request"), fields)
  // a response that sets its own cache lifetime keeps it (/docs, /openapi.json); every other one is no-store
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "cache-control": response.headers["cache-control"] ?? "no-store"
  }
  if (cors !== undefined) {
    Object.assign(headers, cors)
    // a cached answer that varies by encoding varies by origin as well: both go in its Vary
    if (response.headers.vary !== undefined) headers.vary = `${response.headers.vary}, Origin`
  }
  headers["x-request-id"] = arrival.requestId
  return Effect.as(logged, withHeaders(response, headers))
}

export const EdgeLive = HttpRouter.middleware(
  Effect.gen(function* () {
    const drain = yield* Drain
    const routes = yield* ApiRoutes
    const { corsOrigins } = yield* AppConfig
    const keys = yield* ApiKeyStore

    /**
     * The caller an API answer went to, for the log line: whom `Authentication` admits with the same credential
     * (a digest lookup, as it does), since what it provides lives inside the request and the line is written here.
     */
    const keyIdOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
      if (routes.routeOf(pathOf(request.url))?.startsWith("/v1/") !== true) return undefined
      const key = bearerCredential(request.headers.authorization)
      return key === "" ? undefined : keys.authenticate(key)?.id
    }

    return (httpEffect): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled> =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const arrival = arrive(request)
        const cors = corsOrigins === undefined ? undefined : corsHeaders(corsOrigins, request.headers.origin)
        const done = (response: HttpServerResponse.HttpServerResponse, withCors = cors) =>
          finish(fiber, routes, request, arrival, keyIdOf(request), response, withCors)
        if (drain.isDraining()) return finish(fiber, routes, request, arrival, undefined, draining, cors)
        if (cors !== undefined) {
          const answered = preflight(corsOrigins, routes, request.method, pathOf(request.url), request.headers)
          if (answered !== undefined) {
            return finish(fiber, routes, request, arrival, undefined, answered, undefined)
          }
        }
        // At the drain deadline, a request still running is interrupted and answered 503.
        const entry = drain.enter(() => fiber.interruptUnsafe())
        return Effect.matchCauseEffect(httpEffect, {
          onSuccess: (response) => {
            drain.leave(entry)
            return done(response)
          },
          onFailure: (cause) => {
            drain.leave(entry)
            return Effect.flatMap(answer(routes, request, arrival, cause), (response) => done(response))
          }
        })
      })
  }),
  { global: true }
)
