/**
 * What the inner middlewares learn about a request, for its response and its log line: its id, the caller's id
 * and the headers to add. One plain record per request, keyed by the server's own request object, which every
 * request the framework derives from it (`modify`) keeps as its `source`.
 */
import type { HttpServerRequest } from "effect/http"

export interface RequestNotes {
  readonly requestId: string
  readonly started: number
  keyId: string | undefined
  headers: Record<string, string> | undefined
}

const notes = new WeakMap<object, RequestNotes>()

const keyOf = (request: HttpServerRequest.HttpServerRequest): object =>
  typeof request.source === "object" && request.source !== null ? request.source : request

/** A client's own id is kept when sane: 1 to 128 visible ASCII characters. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

/** Starts the notes of a request as it arrives. */
export const open = (request: HttpServerRequest.HttpServerRequest): RequestNotes => {
  const supplied = request.headers["x-request-id"]
  const note: RequestNotes = {
    requestId: supplied !== undefined && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID(),
    started: performance.now(),
    keyId: undefined,
    headers: undefined
  }
  notes.set(keyOf(request), note)
  return note
}

/** The caller's id (`key_…`) for the request's log line. */
export const noteCaller = (request: HttpServerRequest.HttpServerRequest, keyId: string): void => {
  const note = notes.get(keyOf(request))
  if (note !== undefined) note.keyId = keyId
}

/** Headers for this request's response, success or error alike. */
export const noteHeaders = (request: HttpServerRequest.HttpServerRequest, headers: Record<string, string>): void => {
  const note = notes.get(keyOf(request))
  if (note !== undefined) note.headers = note.headers === undefined ? headers : { ...note.headers, ...headers }
}
