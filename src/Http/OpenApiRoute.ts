/**
 * GET /openapi.json: the document derived from the API, made once (on the first request for it), with `servers` per
 * request: PUBLIC_URL when set, else the address the request came in on (a valid Host only), so generated clients
 * and "Try it" call this very server. Served like /docs (Representations.ts): compressed, an ETag per encoding, an
 * hour's cache lifetime; public with PUBLIC_URL, private without (it then depends on the Host the client sent).
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { OpenApi } from "effect/http-api"
import { AppConfig } from "../Config.ts"
import { type Caching, represent, respond, type Representations } from "./Representations.ts"
import { ApiRoutes, OPENAPI_PATH } from "./Routes.ts"

/** The Host header is the client's to choose: only this many documents (one per server URL) are kept. */
const MAX_SERVERS = 16

/**
 * A Host header that names a server: a DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port
 * (RFC 9110's `uri-host [ ":" port ]`, without percent-encoding). Anything else never reaches the document, which a
 * shared cache may hand to everyone.
 */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i

/**
 * Where the request came in: its Host, and with TRUST_PROXY the scheme the proxy says it received. Without a Host
 * that is a `host[:port]`, the server relative to the document (`/`), which OpenAPI resolves where it was fetched.
 */
const requestOrigin = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const host = request.headers.host
  if (host === undefined || host.length > 260 || !HOST.test(host)) return "/"
  const forwarded = trustProxy ? request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() : undefined
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : "http"
  return `${scheme}://${host}`
}

export const OpenApiRoute = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const { publicUrl, trustProxy } = yield* AppConfig
    const { api } = yield* ApiRoutes
    // made on the first request for it: ~2.5 MB of a process's memory that most processes never need
    let spec: OpenApi.OpenAPISpec | undefined
    const documents = new Map<string, Representations>()
    const documentFor = (url: string): Representations => {
      const known = documents.get(url)
      if (known !== undefined) return known
      if (documents.size >= MAX_SERVERS) documents.delete(documents.keys().next().value!)
      const text = JSON.stringify({ ...(spec ??= OpenApi.fromApi(api)), servers: [{ url }] })
      const made = represent(new TextEncoder().encode(text), "application/json")
      documents.set(url, made)
      return made
    }
    // Without PUBLIC_URL the document names the request's Host (and the scheme a proxy reports): only the client that
    // asked may keep it, and a cache must not hand one host's servers, or one scheme's, to another request.
    const caching: Caching =
      publicUrl === undefined
        ? { scope: "private", vary: trustProxy ? ["Host", "X-Forwarded-Proto"] : ["Host"] }
        : { scope: "public" }
    yield* router.add(
      "GET",
      OPENAPI_PATH,
      Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
        respond(request, documentFor(publicUrl ?? requestOrigin(request, trustProxy)), caching)
      )
    )
  })
)
