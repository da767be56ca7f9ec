import { afterAll, describe, expect, test } from "bun:test"
import { ToolsApi } from "../../src/Api.ts"
import { makeRoutes } from "../../src/Http/Routes.ts"
import { makeTestApp, WAGE_PATH } from "../support/TestApp.ts"

const { routeOf } = makeRoutes(ToolsApi)
const app = makeTestApp()
afterAll(() => app.dispose())

describe("a path ended by a semicolon, as the router reads it (`/docs;jsessionid=1` is `/docs`)", () => {
  test("names the route the router serves", () => {
    expect(routeOf("/docs;jsessionid=1")).toBe("/docs")
    expect(routeOf("/docs/;/v1")).toBe("/docs")
    expect(routeOf(`${WAGE_PATH};a=b`)).toBe(WAGE_PATH)
  })

  test("is served, and its 405 names the methods the router has", async () => {
    expect((await app.request("/docs;x")).status).toBe(200)
    const wrong = await app.request("/docs;x", { method: "POST" })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get("allow")).toBe("GET")
  })
})
