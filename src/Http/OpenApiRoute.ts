/**
 * GET /openapi.json: the document derived from the API, made once (on the first request for it), with `servers` per
 * request: PUBLIC_URL when set, else the address the request came in on, so generated clients and "Try it" call this
 * very server. Served like /docs (Representations.ts): compressed, an ETag per encoding, an hour's cache lifetime.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { OpenApi } from "effect/http-api"
import { AppConfig } from "../Config.ts"
import { represent, respond, type Representations } from "./Representations.ts"
import { ApiRoutes, OPENAPI_PATH } from "./Routes.ts"

/** The Host header is the client's to choose: only this many documents (one per server URL) are kept. */
const MAX_SERVERS = 16

/** Where the request came in: its Host, and with TRUST_PROXY the scheme the proxy says it received. */
const requestOrigin = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const forwarded = trustProxy ? request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() : undefined
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : "http"
  return `${scheme}://${request.headers.host ?? "localhost"}`
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
    // without PUBLIC_URL the document names the scheme a proxy reports: a cache must not mix http and https
    const vary = publicUrl === undefined && trustProxy ? ["X-Forwarded-Proto"] : []
    yield* router.add(
      "GET",
      OPENAPI_PATH,
      Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
        respond(request, documentFor(publicUrl ?? requestOrigin(request, trustProxy)), vary)
      )
    )
  })
)
