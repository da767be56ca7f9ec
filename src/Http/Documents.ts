/**
 * /docs, the framework's Scalar page, inlined so it works offline and in the binary; /openapi.json, the framework's
 * document with `servers` per request (PUBLIC_URL, else the request's own Host), so "Try it" calls this very server.
 */
import { Effect, Layer, Scope } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type HttpApi, type HttpApiGroup, HttpApiScalar, OpenApi } from "effect/http-api"
import { AppConfig } from "../Config.ts"
import { CachedLive } from "./Cached.ts"
import { DOCS_PATH, OPENAPI_PATH } from "./Routes.ts"

export const FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2f6f4f"/>' +
      '<path d="M9 10h14M16 10v13" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>'
  )

/** Scalar's options: the bearer scheme preselected, so "Test Request" works with a key pasted once; no toolbar. */
const scalar = {
  withDefaultFonts: false,
  authentication: { preferredSecurityScheme: "bearer" },
  favicon: FAVICON,
  showToolbar: "never",
  hideClientButton: true
}

/** The Host header is the client's to choose: only this many documents are kept. */
const MAX_SERVERS = 16

/** RFC 9110's `uri-host [ ":" port ]`: nothing else reaches the document, which a shared cache may hand to anyone. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i

/** Without a usable Host, the server relative to the document (`/`), which OpenAPI resolves where it was fetched. */
const requestOrigin = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const host = request.headers.host
  if (host === undefined || host.length > 260 || !HOST.test(host)) return "/"
  const forwarded = trustProxy ? request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() : undefined
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : "http"
  return `${scheme}://${host}`
}

const openApiRoute = <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) =>
  HttpRouter.use(
    Effect.fnUntraced(function* (router) {
      const { publicUrl, trustProxy } = yield* AppConfig
      let spec: OpenApi.OpenAPISpec | undefined
      const documents = new Map<string, HttpServerResponse.HttpServerResponse>()
      // Without PUBLIC_URL the document names the request's Host (and the scheme a proxy reports): only the client
      // that asked may keep it, and no cache may hand one host's servers to another request.
      const caching =
        publicUrl === undefined
          ? { "cache-control": "private, max-age=3600", vary: trustProxy ? "Host, X-Forwarded-Proto" : "Host" }
          : {}
      const documentFor = (url: string) => {
        const known = documents.get(url)
        if (known !== undefined) return known
        if (documents.size >= MAX_SERVERS) documents.delete(documents.keys().next().value!)
        const made = HttpServerResponse.jsonUnsafe({ ...(spec ??= OpenApi.fromApi(api)), servers: [{ url }] })
        documents.set(url, HttpServerResponse.setHeaders(made, caching))
        return documents.get(url)!
      }
      yield* router.add(
        "GET",
        OPENAPI_PATH,
        Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
          documentFor(publicUrl ?? requestOrigin(request, trustProxy))
        )
      )
    })
  )

/** Scalar's page, its large script loaded on the first request for it, not by a process nobody reads the docs of. */
const docsRoute = <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      // a router of its own (a fresh memo map): the application's is built already
      const router = HttpRouter.toHttpEffect(HttpApiScalar.layer(api, { path: DOCS_PATH, scalar })).pipe(
        Effect.provideService(Layer.CurrentMemoMap, Layer.makeMemoMapUnsafe()),
        Scope.provide(scope)
      )
      const page = yield* Effect.cached(router)
      return HttpRouter.add("GET", DOCS_PATH, Effect.flatten(page))
    })
  )

export const documentsRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
) => Layer.mergeAll(openApiRoute(api), docsRoute(api)).pipe(Layer.provide(CachedLive))
