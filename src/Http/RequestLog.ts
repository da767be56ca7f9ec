// The request's one log line, from the facts the edge provides for that request (`CurrentRequest`). Not
// HttpMiddleware.logger: its line has no request id, no caller and no clipped path, which operators search by.
import { Context, Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { clip } from "./Clip.ts"

/** One request as the edge answers it: its id and start, and its caller once authentication knows it. */
export class CurrentRequest extends Context.Service<
  CurrentRequest,
  {
    readonly id: string
    readonly startedAt: number
    /** Authentication names the caller here, so the line says who asked without the key being looked up again. */
    readonly noteCaller: (keyId: string) => void
    readonly caller: () => string | undefined
  }
>()("app/CurrentRequest") {}

export const makeCurrentRequest = (id: string, startedAt: number): CurrentRequest["Service"] => {
  let keyId: string | undefined
  return {
    id,
    startedAt,
    noteCaller: (caller) => {
      keyId = caller
    },
    caller: () => keyId
  }
}

export const logRequest = (
  request: HttpServerRequest.HttpServerRequest,
  facts: CurrentRequest["Service"],
  path: string,
  status: number,
  durationMs: number
): Effect.Effect<void> => {
  const fields: Record<string, string | number> = {
    method: request.method,
    path: clip(path),
    status,
    durationMs: Math.round(durationMs * 100) / 100,
    requestId: facts.id
  }
  const keyId = facts.caller()
  if (keyId !== undefined) fields.keyId = keyId
  // a probe every few seconds would drown the requests: a healthy answer to one is at debug, a 503 at info
  const probe = (request.method === "GET" || request.method === "HEAD") && path === "/health" && status === 200
  return Effect.annotateLogs(probe ? Effect.logDebug("request") : Effect.logInfo("request"), fields)
}
