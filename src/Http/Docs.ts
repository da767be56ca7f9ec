/**
 * GET /docs: Scalar's API reference, inlined (no CDN, no fonts from elsewhere) so it works offline and in the
 * binary. The page is 3 MB of script: it is built on the first request, compressed once per encoding a client
 * asks for (br quality 6: 0.8 MB in ~60 ms; quality 11 saves 2% more and takes 4.6 s, blocking the server), and
 * served with an ETag and an hour's cache lifetime, so a visit after the first downloads nothing.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { ToolsApi } from "../Api.ts"
import { DOCS_PATH } from "./Routes.ts"

const FAVICON =
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

const COMPRESS = {
  br: (page: Uint8Array) => brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  gzip: (page: Uint8Array) => gzipSync(page)
} as const

interface Page {
  readonly etag: string
  readonly identity: Uint8Array
  readonly compressed: Partial<Record<keyof typeof COMPRESS, Uint8Array>>
}

/** The page as Scalar's own route renders it, compressed both ways. */
const build = async (): Promise<Page> => {
  const { dispose, handler } = HttpRouter.toWebHandler(HttpApiScalar.layer(ToolsApi, { path: DOCS_PATH, scalar }), {
    disableLogger: true
  })
  const identity = new Uint8Array(await (await handler(new Request(`http://localhost${DOCS_PATH}`))).arrayBuffer())
  await dispose()
  return { etag: `"${Bun.hash(identity).toString(36)}"`, identity, compressed: {} }
}

/** The encodings a client accepts, from Accept-Encoding (a q=0 refuses one). */
const accepts = (header: string | undefined, encoding: string): boolean =>
  (header ?? "")
    .toLowerCase()
    .split(",")
    .some((part) => {
      const [name, ...params] = part.trim().split(";")
      return name === encoding && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))
    })

let page: Promise<Page> | undefined

export const DocsRoute = HttpRouter.add(
  "GET",
  DOCS_PATH,
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(
      Effect.promise(() => (page ??= build())),
      (built) => {
        const headers = {
          etag: built.etag,
          vary: "Accept-Encoding",
          "cache-control": "public, max-age=3600"
        }
        if (request.headers["if-none-match"]?.split(/\s*,\s*/).includes(built.etag)) {
          return HttpServerResponse.empty({ status: 304, headers })
        }
        const header = request.headers["accept-encoding"]
        const encoding = (["br", "gzip"] as const).find((name) => accepts(header, name))
        if (encoding === undefined) {
          return HttpServerResponse.uint8Array(built.identity, { contentType: "text/html; charset=utf-8", headers })
        }
        const body = (built.compressed[encoding] ??= COMPRESS[encoding](built.identity))
        return HttpServerResponse.uint8Array(body, {
          contentType: "text/html; charset=utf-8",
          headers: { ...headers, "content-encoding": encoding }
        })
      }
    )
  )
)
