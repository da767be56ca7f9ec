// A body in memory leaves as the web Response the server sends, its headers one plain record: the framework's Headers
// copy (`setHeaders`) and its conversion to web Headers cost ~3 µs of a ~55 µs request in process (bench/ab.ts).
import { Cookies, HttpServerResponse } from "effect/http"

/** `response` with `headers` added over its own; a stream, cookies or a status without a body through `setHeaders`. */
export const withHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  headers: Record<string, string>
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  const inMemory = body._tag === "Uint8Array" || body._tag === "Empty"
  if (!inMemory || !Cookies.isEmpty(response.cookies) || HttpServerResponse.omitsBody(response)) {
    return HttpServerResponse.setHeaders(response, headers)
  }
  const all = { ...response.headers, ...headers }
  const { status, statusText } = response
  const init = statusText === undefined ? { status, headers: all } : { status, statusText, headers: all }
  const sent = new Response(body._tag === "Empty" ? null : (body.text ?? body.body), init)
  // the same status outside: the framework's tracer and the server read it there
  return HttpServerResponse.raw(sent, statusText === undefined ? { status } : { status, statusText })
}
