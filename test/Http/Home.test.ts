/** GET /: a small page naming the service and linking the docs and the OpenAPI document; 404/405 rules still hold. */
import { afterAll, describe, expect, test } from "bun:test"
import { errorOf, makeTestApp } from "../support/TestApp.ts"

const app = makeTestApp()
afterAll(() => app.dispose())

describe("GET /", () => {
  test("is an HTML page naming the service, whose relative links reach /docs and /openapi.json", async () => {
    const response = await app.request("/")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(response.headers.get("cache-control")).toBe("no-store")
    const html = await response.text()
    expect(html).toContain("<title>Tools API</title>")
    expect(html.length).toBeLessThan(2_000)
    const links = [...html.matchAll(/href="([^"]+)"/g)].map(([, href]) => href!).filter((h) => !h.startsWith("data:"))
    expect(links).toEqual(["docs", "openapi.json", "health"])
    // followed as a browser resolves them from the page's address
    for (const link of links) {
      const target = new URL(link, "http://localhost/")
      expect((await app.request(target.pathname)).status).toBe(200)
    }
    expect((await app.request("/?from=bookmark")).status).toBe(200)
  })

  test("another method on / is 405 with Allow: GET; a path under / that is not a route is still 404", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const response = await app.request("/", { method })
      await errorOf(response, 405, "method_not_allowed")
      expect(response.headers.get("allow")).toBe("GET")
    }
    for (const path of ["/index.html", "/%2F", "/v1", "/v1/tools"]) {
      await errorOf(await app.request(path), 404, "not_found")
    }
  })
})
