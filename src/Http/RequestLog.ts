/**
 * The request's one log line, written by the edge once the request is answered. What only a step inside knows is
 * handed to it here: the caller `Authentication` admitted (its `key_` id, never the key), so the line never looks
 * the key up again.
 */
import { Context, Effect } from "effect"
import { clip } from "./Clip.ts"

export interface RequestLine {
  readonly caller: (keyId: string) => void
}

/** The line of the request being served: the edge provides one a request; outside the edge, naming does nothing. */
export const RequestLog = Context.Reference<RequestLine>("app/RequestLog", {
  defaultValue: () => ({ caller: () => {} })
})

/** A line to fill in while the request is served; `write` logs it with what the edge saw of the answer. */
export const makeLine = () => {
  let keyId: string | undefined
  return {
    line: { caller: (id: string) => void (keyId = id) } satisfies RequestLine,
    write: (method: string, path: string, status: number, durationMs: number, requestId: string) => {
      const fields: Record<string, string | number> = {
        method,
        path: clip(path),
        status,
        durationMs: Math.round(durationMs * 100) / 100,
        requestId
      }
      if (keyId !== undefined) fields.keyId = keyId
      return Effect.annotateLogs(Effect.logInfo("request"), fields)
    }
  }
}
