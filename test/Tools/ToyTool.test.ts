/**
 * A tool is a folder plus its line in the tools list (and its contract's in the contracts list): a toy tool, defined
 * here, added to the list as `src/Tools/index.ts` adds the real ones, is served behind the key and the limit, with
 * the contract's errors, and appears in /openapi.json and in the metrics, with no other file touched.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { Context, Effect, Layer, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import * as Contract from "../../src/Tools/Contract.ts"
import { contracts } from "../../src/Tools/Contracts.ts"
import { tools } from "../../src/Tools/index.ts"
import * as Tool from "../../src/Tools/Tool.ts"
import { errorOf, json, makeTestApp } from "../support/TestApp.ts"

class Shouter extends Context.Service<Shouter, { readonly shout: (text: string) => string }>()("test/Shouter") {
  static readonly layer = Layer.succeed(Shouter, { shout: (text) => `${text.toUpperCase()}!` })
}

const Shout = HttpApiEndpoint.post("shout", "/shout", {
  payload: Schema.Struct({ text: Schema.String }),
  success: Schema.Struct({ success: Schema.Literal(true), shouted: Schema.String })
})

const ShoutContract = Contract.make({ endpoints: [Shout] })

const ShoutTool = Tool.make({
  contract: ShoutContract,
  handlers: Shouter.useSync((shouter): Tool.HandlersOf<typeof ShoutContract> => ({
    shout: ({ payload }) => Effect.succeed({ success: true as const, shouted: shouter.shout(payload.text) })
  })),
  layer: Shouter.layer
})

const PATH = "/v1/tools/shout"
const app = makeTestApp({ tools: [...tools, ShoutTool], perMinute: 3 })
afterAll(() => app.dispose())

describe("a toy tool added through the one list", () => {
  test("is served behind the API key, with the rate-limit headers", async () => {
    await errorOf(await app.post(PATH, { text: "hi" }, { key: null }), 401, "unauthorized")
    const response = await app.post(PATH, { text: "hi" })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({ success: true, shouted: "HI!" })
    expect(response.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60')
    expect(response.headers.get("x-request-id")).toBeTruthy()
  })

  test("answers a bad payload with the contract's 400, naming the field", async () => {
    const error = await errorOf(await app.post(PATH, { text: 42 }), 400, "invalid_request")
    expect(error.details?.[0]?.path).toBe("text")
  })

  test("shares the key's bucket with every other tool: the limit bites on it", async () => {
    // 3 a minute: two taken above, one by this wage estimate, so the next shout is refused.
    expect((await app.post("/v1/tools/wage-estimator", { hourlyWage: 10 })).status).toBe(200)
    const refused = await app.post(PATH, { text: "again" })
    await errorOf(refused, 429, "rate_limited")
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
  })

  test("has 405 with Allow on another method, like every route", async () => {
    const response = await app.request(PATH, { method: "GET" })
    await errorOf(response, 405, "method_not_allowed")
    expect(response.headers.get("allow")).toBe("POST")
  })

  test("is in /openapi.json, secured by the bearer key, with the shared errors", async () => {
    const spec = await json(await app.request("/openapi.json"))
    const operation = spec.paths[PATH]?.post
    expect(operation?.operationId).toBe("tools.shout")
    expect(operation?.security).toEqual([{ bearer: [] }])
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401", "429"]))
    expect(spec.paths["/v1/tools/wage-estimator"]).toBeDefined()
  })

  test("is counted in /metrics under its own route", async () => {
    const text = await (await app.request("/metrics")).text()
    expect(text).toContain(`http_requests_total{route="${PATH}",status="200"}`)
    expect(text).toContain(`http_requests_total{route="${PATH}",status="429"}`)
  })
})

test("the contracts the API is built from are the served tools' own, in the same order", () => {
  expect(tools.map((tool) => tool.contract)).toEqual([...contracts])
})

test("the service's own list is unchanged by the test's", () => {
  expect(tools.flatMap((tool) => tool.contract.endpoints.map((endpoint) => endpoint.identifier))).toEqual([
    "userAgentParser",
    "wageEstimator"
  ])
})
