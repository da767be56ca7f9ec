/**
 * GET /openapi.json: the document derived from the API, made once, with `servers` per request: PUBLIC_URL when set,
 * else the address the request came in on, so generated clients and "Try it" call this very server.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { OpenApi } from "effect/http-api"
import { AppConfig } from "../Config.ts"
import { ApiRoutes, OPENAPI_PATH } from "./Routes.ts"

/** Where the request came in: its Host, and with TRUST_PROXY the scheme the proxy says it received. */
const requestOrigin = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const forwarded = trustProxy ? request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() : undefined
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : "http"
  return `${scheme}://${request.headers.host ?? "localhost"}`
}

export const OpenApiRoute = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const { publicUrl, trustProxy } = yield* AppConfig
    const spec = OpenApi.fromApi((yield* ApiRoutes).api)
    yield* router.add(
      "GET",
      OPENAPI_PATH,
      Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
        HttpServerResponse.jsonUnsafe({ ...spec, servers: [{ url: publicUrl ?? requestOrigin(request, trustProxy) }] })
      )
    )
  })
)
