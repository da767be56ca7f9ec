/**
 * GET /docs: Scalar's API reference, inlined (no CDN, no fonts from elsewhere) so it works offline and in the
 * binary. The page is 3 MB of script: it is built on the first request and served as a fixed body
 * (Representations.ts: compressed, an ETag per encoding, an hour's cache lifetime), so a visit after the first
 * downloads nothing.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { ToolsApi } from "../Api.ts"
import { represent, respond, type Representations } from "./Representations.ts"
import { DOCS_PATH } from "./Routes.ts"

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
} as HttpApiScalar.ScalarConfig

/** The page as Scalar's own route renders it. */
const build = async (): Promise<Representations> => {
  const { dispose, handler } = HttpRouter.toWebHandler(HttpApiScalar.layer(ToolsApi, { path: DOCS_PATH, scalar }), {
    disableLogger: true
  })
  const identity = new Uint8Array(await (await handler(new Request(`http://localhost${DOCS_PATH}`))).arrayBuffer())
  await dispose()
  return represent(identity, "text/html; charset=utf-8")
}

let page: Promise<Representations> | undefined

export const DocsRoute = HttpRouter.add(
  "GET",
  DOCS_PATH,
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(
      Effect.promise(() => (page ??= build())),
      (built) => respond(request, built)
    )
  )
)
