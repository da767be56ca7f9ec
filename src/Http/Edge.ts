/**
 * The outermost middleware: every response, routed or not, encoded error or not, passes here. It gives each
 * request its id, answers 503 while draining, adds the headers every response carries, counts and logs it.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef, Schema } from "effect"
import { ServiceUnavailable, ServiceUnavailableWire } from "../Domain/Errors.ts"
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

/**
 * The framework writes the response before a middleware's own continuation runs, so headers, the log line and the
 * metrics are added in a pre-response handler, which sees the final response of every request, error or not.
 */
export const edge =
  (drain: Drain) =>
  (app: HttpApp.Default): HttpApp.Default =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = performance.now()
      const supplied = request.headers["x-request-id"]
      const requestId = supplied !== undefined && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID()
      const finish = (response: HttpServerResponse.HttpServerResponse) =>
        Effect.flatMap(FiberRef.get(currentCallerId), (keyId) => {
          const durationMs = performance.now() - started
          observe(request, response.status, durationMs)
          return Effect.as(
            Effect.logInfo("request").pipe(
              Effect.annotateLogs({
                method: request.method,
                path: pathOf(request.url),
                status: response.status,
                durationMs: Math.round(durationMs * 100) / 100,
                requestId,
                ...(keyId === undefined ? {} : { keyId })
              })
            ),
            HttpServerResponse.setHeaders(response, { ...COMMON_HEADERS, "x-request-id": requestId })
          )
        })
      if (drain.isDraining()) return yield* finish(draining)
      // A request cut by shutdown (still unfinished at the drain deadline) is answered 503 by the framework with
      // an empty body: it gets the envelope instead.
      yield* HttpApp.appendPreResponseHandler((_, response) =>
        finish(response.status === 503 && response.body._tag === "Empty" ? draining : response)
      )
      drain.enter()
      return yield* app.pipe(Effect.annotateLogs("requestId", requestId), Effect.ensuring(Effect.sync(drain.leave)))
    })

export const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}
