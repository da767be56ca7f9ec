/** /openapi.json as clients use it: servers, request examples that work as sent, declared headers, the wage one-of. */
import { afterAll, describe, expect, test } from "bun:test"
import { settingsOf } from "../support/Settings.ts"
import { json, makeTestApp } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 10_000 })
const behindProxy = makeTestApp({ env: { PUBLIC_URL: "https://api.example.com/" } })
afterAll(async () => {
  await app.dispose()
  await behindProxy.dispose()
})

const spec = await json(await app.request("/openapi.json", { headers: { host: "tools.internal:8080" } }))

describe("/openapi.json", () => {
  test("servers: the address the request came in on, or PUBLIC_URL", async () => {
    expect(spec.servers).toEqual([{ url: "http://tools.internal:8080" }])
    const configured = await json(await behindProxy.request("/openapi.json"))
    expect(configured.servers).toEqual([{ url: "https://api.example.com" }])
    expect(() => settingsOf({ PUBLIC_URL: "ftp://x" })).toThrow(/^PUBLIC_URL must be/)
    expect(() => settingsOf({ PUBLIC_URL: "https://x.example?a=1" })).toThrow(/^PUBLIC_URL must be/)
  })

  test("every tag and operation is described; a tool's operation id is its endpoint's name (its group is top level)", () => {
    for (const tag of spec.tags) expect(tag.description?.length).toBeGreaterThan(0)
    const ids: Array<string> = []
    for (const item of Object.values<any>(spec.paths)) {
      for (const operation of Object.values<any>(item)) {
        expect(operation.description?.length).toBeGreaterThan(0)
        ids.push(operation.operationId)
      }
    }
    expect(ids.sort()).toEqual(["system.health", "userAgentParser", "wageEstimator"])
  })

  test("each request example succeeds when sent as it is, with a key", async () => {
    let sent = 0
    for (const [path, item] of Object.entries<any>(spec.paths)) {
      const examples = item.post?.requestBody?.content?.["application/json"]?.examples ?? {}
      for (const { value } of Object.values<any>(examples)) {
        expect((await app.post(path, value)).status).toBe(200)
        sent++
      }
    }
    expect(sent).toBe(6) // parse, generate, parse userAgents, generate count, and both wage forms
  })

  test("responses declare the headers they carry", () => {
    const wage = spec.paths["/v1/tools/wage-estimator"].post.responses
    expect(Object.keys(wage["200"].headers)).toEqual(
      expect.arrayContaining(["X-Request-Id", "RateLimit", "RateLimit-Policy"])
    )
    expect(Object.keys(wage["429"].headers)).toContain("Retry-After")
    expect(Object.keys(wage["401"].headers)).toContain("WWW-Authenticate")
    expect(Object.keys(wage["405"].headers)).toContain("Allow")
    for (const ref of Object.values<any>(wage["429"].headers)) {
      expect(spec.components.headers[ref.$ref.split("/").at(-1)]).toBeDefined()
    }
  })

  test("the wage request is exactly one of its two forms, so typed clients reject {} and both", () => {
    const wage = spec.components.schemas.WageRequest
    expect(wage.oneOf.map((form: any) => form.required)).toEqual([["hourlyWage"], ["annualSalary"]])
    // each form names the other field `false`: it must be absent
    expect(wage.oneOf.map((form: any) => form.properties)).toEqual([
      expect.objectContaining({ annualSalary: false }),
      expect.objectContaining({ hourlyWage: false })
    ])
  })
})
