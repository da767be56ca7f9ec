/**
 * The outermost middleware: every response, routed or not, encoded error or not, passes here. It gives each
 * request its id, answers 503 while draining, adds the headers every response carries, counts and logs it.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Schema } from "effect"
import { ServiceUnavailable, ServiceUnavailableWire } from "../Domain/Errors.ts"
import type { Drain } from "../Services/Drain.ts"
import { observe } from "./Metrics.ts"
import { logRequest } from "./RequestLog.ts"

/**
 * What the middlewares inside learn about a request, for its response and its log line: the caller's id and the
 * headers to add. One plain record per request, found from the request: a FiberRef write copies the fiber's whole
 * map of FiberRefs and compares the old value with the new, and one such write per fact cost more than the facts.
 */
interface RequestNotes {
  readonly requestId: string
  keyId: string | undefined
  headers: Record<string, string> | undefined
}

const notes = new WeakMap<object, RequestNotes>()

/** The server's own request object: a request the framework derives from it (`modify`) keeps the same source. */
const keyOf = (request: HttpServerRequest.HttpServerRequest): object =>
  typeof request.source === "object" && request.source !== null ? request.source : request

/** The request's id, as its response and log line carry it. */
export const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  notes.get(keyOf(request))?.requestId

/** The caller's id (`key_…`) for the request's log line. */
export const noteCaller = (request: HttpServerRequest.HttpServerRequest, keyId: string): void => {
  const note = notes.get(keyOf(request))
  if (note !== undefined) note.keyId = keyId
}

/** Notes headers for this request's response, if the edge saw the request; false if it did not. */
const noteHeaders = (request: HttpServerRequest.HttpServerRequest, headers: Record<string, string>): boolean => {
  const note = notes.get(keyOf(request))
  if (note === undefined) return false
  note.headers = note.headers === undefined ? headers : { ...note.headers, ...headers }
  return true
}

/**
 * `next`, with these headers on the request's response, success or error alike. A request that did not pass the
 * edge (an HttpApi used without it) gets them from a pre-response handler instead.
 */
export const withResponseHeaders = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  headers: Record<string, string>,
  next: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  noteHeaders(request, headers)
    ? next
    : Effect.zipRight(
        HttpApp.appendPreResponseHandler((_, response) =>
          Effect.succeed(HttpServerResponse.setHeaders(response, headers))
        ),
        next
      )

/** A client's own id is kept when sane: 1 to 128 visible ASCII characters. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

const COMMON_HEADERS = { "x-content-type-options": "nosniff", "cache-control": "no-store" } as const

const envelope = (status: number, body: unknown) =>
  HttpServerResponse.text(JSON.stringify(body), { status, contentType: "application/json" })

const draining = envelope(
  503,
  Schema.encodeSync(ServiceUnavailableWire)(
    new ServiceUnavailable({ message: "The server is shutting down; retry on another instance" })
  )
).pipe(HttpServerResponse.setHeader("connection", "close"))

const finish = (
  request: HttpServerRequest.HttpServerRequest,
  note: RequestNotes,
  started: number,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const durationMs = performance.now() - started
  observe(request, response.status, durationMs)
  return Effect.as(
    logRequest({
      method: request.method,
      path: pathOf(request.url),
      status: response.status,
      durationMs: Math.round(durationMs * 100) / 100,
      requestId: note.requestId,
      ...(note.keyId === undefined ? {} : { keyId: note.keyId })
    }),
    HttpServerResponse.setHeaders(response, { ...COMMON_HEADERS, ...note.headers, "x-request-id": note.requestId })
  )
}

/**
 * The framework writes the response before a middleware's own continuation runs, so headers, the log line and the
 * metrics are added in a pre-response handler, which sees the final response of every request, error or not.
 */
export const edge =
  (drain: Drain) =>
  (app: HttpApp.Default): HttpApp.Default => {
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const started = performance.now()
      const supplied = request.headers["x-request-id"]
      const note: RequestNotes = {
        requestId: supplied !== undefined && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID(),
        keyId: undefined,
        headers: undefined
      }
      notes.set(keyOf(request), note)
      if (drain.isDraining()) return finish(request, note, started, draining)
      drain.enter()
      // The framework runs the pre-response handler once for every request, answered or failed, interrupted
      // included (its response path is uninterruptible), so the request leaves the drain's count there. A request
      // cut by shutdown (still unfinished at the drain deadline) is answered 503 by the framework with an empty
      // body: it gets the envelope instead.
      return Effect.zipRight(
        HttpApp.appendPreResponseHandler((_, response) => {
          drain.leave()
          return finish(
            request,
            note,
            started,
            response.status === 503 && response.body._tag === "Empty" ? draining : response
          )
        }),
        app
      )
    })
  }

export const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}
