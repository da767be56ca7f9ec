/** What the edge knows of a request as it arrives: its id (the client's own when sane) and when it started. */
import type { HttpServerRequest } from "effect/http"

export interface Arrival {
  readonly requestId: string
  readonly started: number
}

/** A client's own id is kept when sane: 1 to 128 visible ASCII characters. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/

export const arrive = (request: HttpServerRequest.HttpServerRequest): Arrival => {
  const supplied = request.headers["x-request-id"]
  return {
    requestId: supplied !== undefined && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID(),
    started: performance.now()
  }
}
