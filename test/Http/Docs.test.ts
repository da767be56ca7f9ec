/** GET /docs: the reference page, compressed when the client accepts it, cached by ETag and for an hour. */
import { afterAll, describe, expect, test } from "bun:test"
import { gunzipSync, brotliDecompressSync } from "node:zlib"
import { makeTestApp } from "../support/TestApp.ts"

const app = makeTestApp()
afterAll(() => app.dispose())

const docs = (headers: Record<string, string> = {}) => app.request("/docs", { headers })

describe("/docs", () => {
  test("is the same page in br, gzip or plain, under 1.2 MB on the wire when compressed", async () => {
    const plain = await docs({ "accept-encoding": "identity" })
    expect(plain.status).toBe(200)
    expect(plain.headers.get("content-encoding")).toBeNull()
    const html = Buffer.from(await plain.arrayBuffer())
    for (const [encoding, decompress] of [
      ["br", brotliDecompressSync],
      ["gzip", gunzipSync]
    ] as const) {
      const response = await docs({ "accept-encoding": `${encoding}, deflate` })
      expect(response.headers.get("content-encoding")).toBe(encoding)
      expect(response.headers.get("vary")).toBe("Accept-Encoding")
      const wire = Buffer.from(await response.arrayBuffer())
      expect(wire.length).toBeLessThan(1_200_000)
      expect(decompress(wire).equals(html)).toBe(true)
    }
    expect((await docs({ "accept-encoding": "br;q=0, gzip" })).headers.get("content-encoding")).toBe("gzip")
  })

  test("has an ETag and an hour's cache lifetime; a matching If-None-Match is a 304 without a body", async () => {
    const first = await docs()
    const etag = first.headers.get("etag")
    expect(etag).toMatch(/^"[0-9a-z]+"$/)
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600")
    expect(first.headers.get("x-content-type-options")).toBe("nosniff")
    const again = await docs({ "if-none-match": etag! })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe("")
    expect(again.headers.get("etag")).toBe(etag)
    expect((await docs({ "if-none-match": '"other"' })).status).toBe(200)
  })

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
