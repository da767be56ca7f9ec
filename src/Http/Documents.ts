// /docs and /openapi.json (`servers` from PUBLIC_URL, else the Host) as caches expect: br or gzip, ETags, 304s, an
// hour's lifetime; each encoding made once, where `HttpMiddleware.compression` makes it anew, untagged, every time.
import { createHash } from "node:crypto"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { Effect, Layer, Scope } from "effect"
import { LRUCache } from "lru-cache"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type HttpApi, type HttpApiGroup, HttpApiScalar, OpenApi } from "effect/http-api"
import { AppConfig } from "../Config.ts"
import { DOCS_PATH, HOME_PATH, OPENAPI_PATH } from "./Routes.ts"

// br at a middle quality: the highest compresses the docs page little better and blocks the server for seconds.
const COMPRESS = {
  br: (body: Uint8Array) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  gzip: (body: Uint8Array) => gzipSync(body)
} as const

/** A response made once and served to many: its digest, and each encoding made on its first request. */
interface Document {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly digest: string
  readonly compressed: { br?: Uint8Array; gzip?: Uint8Array }
}

const documentOf = (response: HttpServerResponse.HttpServerResponse): Document => {
  const body = response.body._tag === "Uint8Array" ? response.body.body : new Uint8Array()
  return { response, digest: createHash("sha256").update(body).digest("hex").slice(0, 20), compressed: {} }
}

/** The first of br and gzip that Accept-Encoding accepts (a q=0 refuses it). */
const negotiate = (header = "") => {
  const accepted = header
    .toLowerCase()
    .split(",")
    .map((part) => part.trim().split(";"))
    .filter(([, ...params]) => !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)))
  return (["br", "gzip"] as const).find((name) => accepted.some(([accepted]) => accepted === name)) ?? "identity"
}

/** If-None-Match against our (strong) ETag: `*`, or any listed tag's quoted part, so a weak `W/` one matches too. */
const noneMatch = (header: string | undefined, etag: string): boolean =>
  header !== undefined && (header.trim() === "*" || (header.match(/"[^"]*"/g) ?? []).some((tag) => tag === etag))

const represent = (request: HttpServerRequest.HttpServerRequest, document: Document) => {
  const { compressed, digest, response } = document
  const body = response.body
  if (body._tag !== "Uint8Array" || response.status !== 200) return response
  const encoding = negotiate(request.headers["accept-encoding"])
  const etag = encoding === "identity" ? `"${digest}"` : `"${digest}-${encoding}"`
  const headers = {
    etag,
    vary: response.headers.vary === undefined ? "Accept-Encoding" : `Accept-Encoding, ${response.headers.vary}`,
    "cache-control": response.headers["cache-control"] ?? "public, max-age=3600"
  }
  if (noneMatch(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers })
  // the framework writes text as UTF-8: said in the type, so nothing has to guess
  const contentType = /^text\/[^;]*$/.test(body.contentType) ? `${body.contentType}; charset=utf-8` : body.contentType
  if (encoding === "identity") return HttpServerResponse.uint8Array(body.body, { contentType, headers })
  compressed[encoding] ??= COMPRESS[encoding](body.body)
  return HttpServerResponse.uint8Array(compressed[encoding], {
    contentType,
    headers: { ...headers, "content-encoding": encoding }
  })
}

/** `document` as this request accepts it. */
const serveDocument = (document: Document) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => represent(request, document))

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
  hideClientButton: true,
  // each tool is a group of its own: every one open, so each operation is on the page
  defaultOpenAllTags: true
}

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
      // Without PUBLIC_URL the servers come from the request's Host: private, so no cache hands them to another host.
      const caching =
        publicUrl === undefined
          ? { "cache-control": "private, max-age=3600", vary: trustProxy ? "Host, X-Forwarded-Proto" : "Host" }
          : {}
      const documents = new LRUCache<string, Document>({
        max: 16, // the Host header is the client's to choose: only this many documents are kept
        memoMethod: (url) => {
          spec ??= OpenApi.fromApi(api)
          const json = HttpServerResponse.jsonUnsafe({ ...spec, servers: [{ url }] })
          return documentOf(HttpServerResponse.setHeaders(json, caching))
        }
      })
      const serve = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        serveDocument(documents.memo(publicUrl ?? requestOrigin(request, trustProxy)))
      )
      yield* router.add("GET", OPENAPI_PATH, serve)
    })
  )

/** Scalar's page, its large script loaded on the first request for it, not by a process nobody reads the docs of. */
const docsRoute = <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      // a router of its own (a fresh memo map): the application's is built already
      const page = HttpRouter.toHttpEffect(HttpApiScalar.layer(api, { path: DOCS_PATH, scalar })).pipe(
        Effect.provideService(Layer.CurrentMemoMap, Layer.makeMemoMapUnsafe()),
        Scope.provide(scope)
      )
      // made on the first request for it (Scalar's route answers GET /docs alone, the same page every time)
      const document = yield* Effect.cached(Effect.flatMap(page, (route) => Effect.map(route, documentOf)))
      return HttpRouter.add("GET", DOCS_PATH, Effect.flatMap(document, serveDocument))
    })
  )

export const documentsRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
) => Layer.mergeAll(openApiRoute(api), docsRoute(api))

// GET /: what the service is and where to go; a page, not a redirect, so its relative links work under a path prefix.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tools API</title>
<link rel="icon" href="${FAVICON}">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2b24}
a{color:#2f6f4f}code{background:#eef3f0;padding:0 .25rem;border-radius:3px}</style>
</head>
<body>
<h1>Tools API</h1>
<p>A user-agent parser and generator, and a wage estimator, as JSON over HTTP.
Calls to <code>/v1/tools/…</code> need an API key: <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<ul>
<li><a href="docs">API reference</a>: every endpoint, with examples you can send from the page</li>
<li><a href="openapi.json">OpenAPI document</a>: to generate a client</li>
<li><a href="health">Health</a></li>
</ul>
</body>
</html>
`

export const HomeRoute = HttpRouter.add(
  "GET",
  HOME_PATH,
  HttpServerResponse.text(PAGE, { contentType: "text/html; charset=utf-8" })
)
