/**
 * The docs page and the OpenAPI document as caches expect: br or gzip, an ETag per representation (RFC 9110 8.8.3),
 * 304 by weak comparison or `*`, an hour's public lifetime. The framework's `HttpMiddleware.compression` compresses
 * every response anew and tags none; these bodies never change, so each encoding is made once.
 */
import { createHash } from "node:crypto"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

// br at a middle quality: the highest compresses the docs page little better and blocks the server for seconds.
const COMPRESS = {
  br: (body: Uint8Array) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  gzip: (body: Uint8Array) => gzipSync(body)
} as const

type Encoding = keyof typeof COMPRESS | "identity"

interface Representations {
  readonly digest: string
  readonly identity: Uint8Array
  readonly compressed: Partial<Record<keyof typeof COMPRESS, Uint8Array>>
}

const made = new WeakMap<HttpServerResponse.HttpServerResponse, Representations>()

/** Whether Accept-Encoding accepts an encoding (a q=0 refuses it). */
const accepts = (header: string, encoding: string): boolean =>
  header
    .toLowerCase()
    .split(",")
    .some((part) => {
      const [name, ...params] = part.trim().split(";")
      return name === encoding && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))
    })

const negotiate = (acceptEncoding = ""): Encoding =>
  (["br", "gzip"] as const).find((name) => accepts(acceptEncoding, name)) ?? "identity"

/** If-None-Match against an ETag: `*`, or any listed tag equal to it once a weak `W/` prefix is set aside. */
const noneMatch = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false
  if (header.trim() === "*") return true
  const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag)
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === opaque(etag))
}

const represent = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (body._tag !== "Uint8Array" || response.status !== 200) return response
  let known = made.get(response)
  if (known === undefined) {
    const digest = createHash("sha256").update(body.body).digest("hex").slice(0, 20)
    made.set(response, (known = { digest, identity: body.body, compressed: {} }))
  }
  const encoding = negotiate(request.headers["accept-encoding"])
  const etag = encoding === "identity" ? `"${known.digest}"` : `"${known.digest}-${encoding}"`
  const headers = {
    etag,
    vary: response.headers.vary === undefined ? "Accept-Encoding" : `Accept-Encoding, ${response.headers.vary}`,
    "cache-control": response.headers["cache-control"] ?? "public, max-age=3600"
  }
  if (noneMatch(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers })
  // the framework writes text as UTF-8: said in the type, so nothing has to guess
  const contentType = /^text\/[^;]*$/.test(body.contentType) ? `${body.contentType}; charset=utf-8` : body.contentType
  if (encoding === "identity") return HttpServerResponse.uint8Array(known.identity, { contentType, headers })
  const compressed = (known.compressed[encoding] ??= COMPRESS[encoding](known.identity))
  return HttpServerResponse.uint8Array(compressed, {
    contentType,
    headers: { ...headers, "content-encoding": encoding }
  })
}

export const CachedLive = HttpRouter.middleware((httpEffect) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(httpEffect, (response) => represent(request, response))
  )
).layer
