/**
 * A fixed body (the docs page, the OpenAPI document) served as shared caches and browsers expect: br or gzip when
 * the client accepts it, each representation under its own ETag (RFC 9110 8.8.3: an ETag names one representation,
 * so the gzip bytes cannot share the identity bytes' tag), 304 when If-None-Match matches by weak comparison or is
 * `*`, and an hour's cache lifetime, public unless the body depends on who asked. Each encoding is compressed once, on
 * the first request that asks for it.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import type { HttpServerRequest } from "effect/http"
import { HttpServerResponse } from "effect/http"

// br quality 6: the 3 MB docs page in ~60 ms; quality 11 saves 2% more and takes 4.6 s, blocking the server.
const COMPRESS = {
  br: (body: Uint8Array) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  gzip: (body: Uint8Array) => gzipSync(body)
} as const

export type Encoding = keyof typeof COMPRESS | "identity"

export interface Representations {
  readonly contentType: string
  /** A digest of the identity bytes; each representation's ETag derives from it. */
  readonly digest: string
  readonly identity: Uint8Array
  readonly compressed: Partial<Record<keyof typeof COMPRESS, Uint8Array>>
}

export const represent = (identity: Uint8Array, contentType: string): Representations => ({
  contentType,
  digest: Bun.hash(identity).toString(36),
  identity,
  compressed: {}
})

/** `"<digest>"` for the identity bytes, `"<digest>-br"` and `"<digest>-gzip"` for the compressed ones. */
export const etagOf = (representations: Representations, encoding: Encoding): string =>
  encoding === "identity" ? `"${representations.digest}"` : `"${representations.digest}-${encoding}"`

/** Whether Accept-Encoding accepts an encoding (a q=0 refuses it). */
const accepts = (header: string | undefined, encoding: string): boolean =>
  (header ?? "")
    .toLowerCase()
    .split(",")
    .some((part) => {
      const [name, ...params] = part.trim().split(";")
      return name === encoding && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))
    })

/** br when accepted, else gzip, else the bytes as they are. */
export const negotiate = (acceptEncoding: string | undefined): Encoding =>
  (["br", "gzip"] as const).find((name) => accepts(acceptEncoding, name)) ?? "identity"

/** If-None-Match against an ETag: `*`, or any listed tag equal to it once a weak `W/` prefix is set aside. */
export const noneMatch = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false
  if (header.trim() === "*") return true
  const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag)
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === opaque(etag))
}

/** Caching beyond the encoding: the request headers the body depends on, and whether a shared cache may keep it. */
export interface Caching {
  readonly vary?: ReadonlyArray<string>
  readonly scope?: "public" | "private"
}

/** The response to a GET: the representation the client accepts, or a 304 when it already holds that one. */
export const respond = (
  request: HttpServerRequest.HttpServerRequest,
  representations: Representations,
  { scope = "public", vary = [] }: Caching = {}
): HttpServerResponse.HttpServerResponse => {
  const encoding = negotiate(request.headers["accept-encoding"])
  const headers: Record<string, string> = {
    etag: etagOf(representations, encoding),
    vary: ["Accept-Encoding", ...vary].join(", "),
    "cache-control": `${scope}, max-age=3600`
  }
  if (noneMatch(request.headers["if-none-match"], headers.etag!)) {
    return HttpServerResponse.empty({ status: 304, headers })
  }
  if (encoding === "identity") {
    return HttpServerResponse.uint8Array(representations.identity, {
      contentType: representations.contentType,
      headers
    })
  }
  const body = (representations.compressed[encoding] ??= COMPRESS[encoding](representations.identity))
  return HttpServerResponse.uint8Array(body, {
    contentType: representations.contentType,
    headers: { ...headers, "content-encoding": encoding }
  })
}
