/**
 * GET /docs and GET /openapi.json, the two fixed bodies: compressed when the client accepts it, an ETag for each
 * representation, 304 on a matching If-None-Match (weak comparison, `*` too), cached for an hour (privately when the
 * OpenAPI document names the request's Host).
 */
import { afterAll, describe, expect, test } from "bun:test"
import { gunzipSync, brotliDecompressSync } from "node:zlib"
import { json, makeTestApp } from "../support/TestApp.ts"

const app = makeTestApp()
const cors = makeTestApp({ env: { CORS_ORIGINS: "https://app.example.com" } })
const PUBLIC_URL = "https://api.example.com"
const published = makeTestApp({ env: { PUBLIC_URL } })
const publishedCors = makeTestApp({ env: { PUBLIC_URL, CORS_ORIGINS: "https://app.example.com" } })
afterAll(async () => {
  for (const each of [app, cors, published, publishedCors]) await each.dispose()
})

const get = (path: string, headers: Record<string, string> = {}, from = app) => from.request(path, { headers })
const docs = (headers: Record<string, string> = {}) => get("/docs", headers)

const ENCODINGS = [
  ["br", brotliDecompressSync],
  ["gzip", gunzipSync]
] as const

/**
 * Each fixed body as served: /docs and, with PUBLIC_URL, /openapi.json are the same for everyone (public); without
 * PUBLIC_URL the document names the Host the request came with, so it is private and varies by Host.
 */
describe.each([
  ["/docs", "/docs", "text/html; charset=utf-8", 1_200_000, app, cors, "public", "Accept-Encoding"],
  [
    "/openapi.json with PUBLIC_URL",
    "/openapi.json",
    "application/json",
    6_000,
    published,
    publishedCors,
    "public",
    "Accept-Encoding"
  ],
  [
    "/openapi.json without PUBLIC_URL",
    "/openapi.json",
    "application/json",
    6_000,
    app,
    cors,
    "private",
    "Accept-Encoding, Host"
  ]
] as const)("%s", (_, path, type, compressedUnder, server, withCors, scope, vary) => {
  const get = (path: string, headers: Record<string, string> = {}) => server.request(path, { headers })

  test(`is the same body in br, gzip or plain, under ${compressedUnder} bytes on the wire when compressed`, async () => {
    const plain = await get(path, { "accept-encoding": "identity" })
    expect(plain.status).toBe(200)
    expect(plain.headers.get("content-type")).toBe(type)
    expect(plain.headers.get("content-encoding")).toBeNull()
    const body = Buffer.from(await plain.arrayBuffer())
    for (const [encoding, decompress] of ENCODINGS) {
      const response = await get(path, { "accept-encoding": `${encoding}, deflate` })
      expect(response.headers.get("content-encoding")).toBe(encoding)
      expect(response.headers.get("vary")).toBe(vary)
      const wire = Buffer.from(await response.arrayBuffer())
      expect(wire.length).toBeLessThan(compressedUnder)
      expect(wire.length).toBeLessThan(body.length / 3)
      expect(decompress(wire).equals(body)).toBe(true)
    }
    expect((await get(path, { "accept-encoding": "br;q=0, gzip" })).headers.get("content-encoding")).toBe("gzip")
  })

  test(`each representation has its own ETag; an hour's ${scope} cache lifetime`, async () => {
    const etags = new Set<string>()
    for (const encoding of ["br", "gzip", "identity"]) {
      const response = await get(path, { "accept-encoding": encoding })
      expect(response.headers.get("cache-control")).toBe(`${scope}, max-age=3600`)
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
      const etag = response.headers.get("etag")
      expect(etag).toMatch(encoding === "identity" ? /^"[0-9a-z]+"$/ : new RegExp(`^"[0-9a-z]+-${encoding}"$`))
      etags.add(etag!)
    }
    expect(etags.size).toBe(3)
  })

  test("If-None-Match: the representation's tag (strong or W/), a list holding it, or * is a 304 without a body", async () => {
    for (const encoding of ["br", "gzip", "identity"]) {
      const accept = { "accept-encoding": encoding }
      const etag = (await get(path, accept)).headers.get("etag")!
      for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, `W/"x",W/${etag}`, "*"]) {
        const again = await get(path, { ...accept, "if-none-match": condition })
        expect(again.status).toBe(304)
        expect(await again.text()).toBe("")
        expect(again.headers.get("etag")).toBe(etag)
        expect(again.headers.get("cache-control")).toBe(`${scope}, max-age=3600`)
        expect(again.headers.get("vary")).toBe(vary)
      }
    }
    // another representation's tag does not match: a client that held gzip and now takes br gets br
    const gzip = (await get(path, { "accept-encoding": "gzip" })).headers.get("etag")!
    const br = await get(path, { "accept-encoding": "br", "if-none-match": gzip })
    expect([br.status, br.headers.get("content-encoding")]).toEqual([200, "br"])
    expect((await get(path, { "if-none-match": '"other"' })).status).toBe(200)
    expect((await get(path, { "if-none-match": "W/other" })).status).toBe(200)
  })

  test("with CORS, the answer to an allowed origin varies by encoding and by origin", async () => {
    const response = await withCors.request(path, {
      headers: { origin: "https://app.example.com", "accept-encoding": "gzip" }
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("vary")).toBe(`${vary}, Origin`)
  })
})

describe("/openapi.json", () => {
  test("built from the request's Host: private, and varies by Host (and by X-Forwarded-Proto with TRUST_PROXY)", async () => {
    const proxied = makeTestApp({ env: { TRUST_PROXY: "true" } })
    try {
      for (const [server, vary] of [
        [app, "Accept-Encoding, Host"],
        [proxied, "Accept-Encoding, Host, X-Forwarded-Proto"]
      ] as const) {
        const response = await get("/openapi.json", { host: "attacker.example", "x-forwarded-proto": "https" }, server)
        expect((await json(response)).servers).toEqual([
          { url: `${server === proxied ? "https" : "http"}://attacker.example` }
        ])
        expect(response.headers.get("cache-control")).toBe("private, max-age=3600")
        expect(response.headers.get("vary")).toBe(vary)
      }
    } finally {
      await proxied.dispose()
    }
  })

  test("with PUBLIC_URL the Host is not read: one public document for everyone", async () => {
    const response = await get("/openapi.json", { host: "attacker.example" }, published)
    expect((await json(response)).servers).toEqual([{ url: PUBLIC_URL }])
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600")
    expect(response.headers.get("vary")).toBe("Accept-Encoding")
  })

  test("a document per server URL, each with its own ETag, so no cache hands one host's servers to another", async () => {
    const a = await get("/openapi.json", { host: "a.example:3000" })
    const b = await get("/openapi.json", { host: "b.example:3000" })
    expect((await json(a)).servers).toEqual([{ url: "http://a.example:3000" }])
    expect((await json(b)).servers).toEqual([{ url: "http://b.example:3000" }])
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"))
    // many hosts later, the first is still answered correctly (the table of documents is bounded, not wrong)
    for (let i = 0; i < 40; i++) await get("/openapi.json", { host: `h${i}.example` })
    expect((await json(await get("/openapi.json", { host: "a.example:3000" }))).servers).toEqual([
      { url: "http://a.example:3000" }
    ])
  })
})

describe("/docs", () => {
  test("preselects the bearer scheme, hides the toolbar, carries its own favicon, loads nothing from elsewhere", async () => {
    const html = await (await docs()).text()
    expect(html).toMatch(/"preferredSecurityScheme":\s*"bearer"/)
    expect(html).toMatch(/"showToolbar":\s*"never"/)
    expect(html).toMatch(/"favicon":\s*"data:image\/svg\+xml,/)
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/i)
    expect(html).toMatch(/"withDefaultFonts":\s*false/)
  })

  test("API answers stay no-store", async () => {
    expect((await app.request("/health")).headers.get("cache-control")).toBe("no-store")
  })
})
