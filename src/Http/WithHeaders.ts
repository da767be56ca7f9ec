/** How the edge adds the headers every response carries, in one step (`Edge.ts`). */
import { Cookies, HttpServerResponse } from "effect/http"

/**
 * The response with `headers` added (over its own). A body in memory is made the web `Response` the server sends,
 * its headers a plain record, in one step: the framework's `Headers` copies, then its conversion to web `Headers`,
 * cost more than the rest of the edge. Anything else (a stream, cookies, a status without a body) gets them through
 * `setHeaders`.
 */
export const withHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  headers: Record<string, string>
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (
    (body._tag !== "Uint8Array" && body._tag !== "Empty") ||
    !Cookies.isEmpty(response.cookies) ||
    HttpServerResponse.omitsBody(response)
  ) {
    return HttpServerResponse.setHeaders(response, headers)
  }
  const own = response.headers
  for (const name in own) if (!Object.hasOwn(headers, name)) headers[name] = own[name]!
  const { status, statusText } = response
  const sent = new Response(body._tag === "Empty" ? null : (body.text ?? body.body), {
    status,
    headers,
    ...(statusText === undefined ? undefined : { statusText })
  })
  // The same status outside: the framework's tracer and the server read it there.
  return HttpServerResponse.raw(sent, statusText === undefined ? { status } : { status, statusText })
}
