/**
 * What the edge and the security middleware learn about one request, for its response and its log line: its id,
 * when it started, the caller's id and the headers to add. The edge makes one per request and runs the request with
 * it in its context, so the middleware inside writes to that request's note and to no other.
 */
import { Context } from "effect"
import type { HttpServerRequest } from "effect/http"

export interface Note {
  readonly requestId: string
  readonly started: number
  keyId: string | undefined
  headers: Record<string, string> | undefined
}

export class RequestNote extends Context.Service<RequestNote, Note>()("app/RequestNote") {}

/** A client's own id is kept when sane: 1 to 128 visible ASCII characters. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

/** The note of a request as it arrives. */
export const open = (request: HttpServerRequest.HttpServerRequest): Note => {
  const supplied = request.headers["x-request-id"]
  return {
    requestId: supplied !== undefined && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID(),
    started: performance.now(),
    keyId: undefined,
    headers: undefined
  }
}

/** Headers for this request's response, success or error alike. */
export const addHeaders = (note: Note, headers: Record<string, string>): void => {
  note.headers = note.headers === undefined ? headers : { ...note.headers, ...headers }
}
