// The request's one log line; the caller is noted (weakly) against the request, so the key is never looked up again.
import { Context, Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { clip } from "./Clip.ts"

export class RequestLog extends Context.Service<
  RequestLog,
  {
    readonly admitted: (request: HttpServerRequest.HttpServerRequest, keyId: string) => void
    readonly write: (
      request: HttpServerRequest.HttpServerRequest,
      path: string,
      status: number,
      durationMs: number,
      requestId: string
    ) => Effect.Effect<void>
  }
>()("app/RequestLog") {
  static readonly layer = Layer.sync(RequestLog, () => {
    const callers = new WeakMap<HttpServerRequest.HttpServerRequest, string>()
    return {
      admitted: (request, keyId) => void callers.set(request, keyId),
      write: (request, path, status, durationMs, requestId) => {
        const fields: Record<string, string | number> = {
          method: request.method,
          path: clip(path),
          status,
          durationMs: Math.round(durationMs * 100) / 100,
          requestId
        }
        const keyId = callers.get(request)
        if (keyId !== undefined) fields.keyId = keyId
        // a probe every few seconds would drown the requests: a healthy answer to one is at debug, a 503 at info
        const probe = (request.method === "GET" || request.method === "HEAD") && path === "/health" && status === 200
        return Effect.annotateLogs(probe ? Effect.logDebug("request") : Effect.logInfo("request"), fields)
      }
    }
  })
}
