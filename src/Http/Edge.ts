/**
 * The outermost middleware: every response, routed or not, encoded error or not, passes here. It gives each
 * request its id, answers 503 while draining, adds the headers every response carries, turns anything that
 * escaped the API's error mapping into the 500 envelope, counts and logs the request.
 */
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, FiberRef, Schema } from "effect"
import {
  InternalError,
  InternalErrorWire,
  ServiceUnavailable,
  ServiceUnavailableWire
} from "../Domain/Errors.ts"
import type { Drain } from "../Services/Drain.ts"
import { observe } from "./Metrics.ts"

/** The caller's id (`key_…`), set by the Authorization middleware for the request log. */
export const currentCallerId = FiberRef.unsafeMake<string | undefined>(undefined)

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

export const internalError = envelope(
  500,
  Schema.encodeSync(InternalErrorWire)(
    new InternalError({ message: "Something went wrong on our side; the request id identifies it in our logs" })
  )
)

export const edge = (drain: Drain) => (app: HttpApp.Default): HttpApp.Default =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = performance.now()
    const supplied = request.headers["x-request-id"]
    const requestId = supplied !== undefined && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID()
    let response: HttpServerResponse.HttpServerResponse
    if (drain.isDraining()) {
      response = draining
    } else {
      drain.enter()
      response = yield* app.pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.as(Effect.logError("Unhandled failure", cause), internalError)
        ),
        Effect.annotateLogs("requestId", requestId),
        Effect.ensuring(Effect.sync(drain.leave))
      )
    }
    const durationMs = performance.now() - started
    const keyId = yield* FiberRef.get(currentCallerId)
    observe(request, response.status, durationMs)
    yield* Effect.logInfo("request").pipe(
      Effect.annotateLogs({
        method: request.method,
        path: pathOf(request.url),
        status: response.status,
        durationMs: Math.round(durationMs * 100) / 100,
        requestId,
        ...(keyId === undefined ? {} : { keyId })
      })
    )
    return HttpServerResponse.setHeaders(response, { ...COMMON_HEADERS, "x-request-id": requestId })
  })

export const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}
