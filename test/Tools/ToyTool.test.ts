/**
 * A tool is a folder plus its group in the API's list (`src/Api.ts`) and its handlers in the server's
 * (`src/Tools/index.ts`): a toy tool, defined here and added to both as the real ones are, is served behind the key
 * and the limit, with the contract's errors, and appears in /openapi.json and in the metrics, with no other file
 * touched.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { Context, Effect, Layer, Schema } from "effect"
import { HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { makeApi, ToolsApi } from "../../src/Api.ts"
import { ApiRoutes } from "../../src/Http/Routes.ts"
import { HttpLive, makeHttp } from "../../src/Http.ts"
import { ToolsLive } from "../../src/Tools/index.ts"
import { UserAgentGroup } from "../../src/Tools/UserAgent/Contract.ts"
import { UserAgentLive } from "../../src/Tools/UserAgent/index.ts"
import { WageGroup } from "../../src/Tools/Wage/Contract.ts"
import { errorOf, json, makeTestApp } from "../support/TestApp.ts"

class Shouter extends Context.Service<Shouter, { readonly shout: (text: string) => string }>()("test/Shouter") {
  static readonly layer = Layer.succeed(Shouter, { shout: (text) => `${text.toUpperCase()}!` })
}

class ShoutGroup extends HttpApiGroup.make("shout", { topLevel: true }).add(
  HttpApiEndpoint.post("shout", "/shout", {
    payload: Schema.Struct({ text: Schema.String }),
    success: Schema.Struct({ success: Schema.Literal(true), shouted: Schema.String })
  })
) {}

// The two lines: the group in the API's list, the handlers beside the others.
const ToyApi = makeApi(UserAgentGroup, WageGroup, ShoutGroup)
const ShoutLive = HttpApiBuilder.group(
  ToyApi,
  "shout",
  Effect.fnUntraced(function* (handlers) {
    const shouter = yield* Shouter
    return handlers.handle("shout", ({ payload }) =>
      Effect.succeed({ success: true as const, shouted: shouter.shout(payload.text) })
    )
  })
).pipe(Layer.provide(Shouter.layer))

const PATH = "/v1/tools/shout"
const app = makeTestApp({
  served: { app: makeHttp(ToyApi, Layer.mergeAll(ToolsLive, ShoutLive)), routes: ApiRoutes.layer(ToyApi) },
  perMinute: 3
})
afterAll(() => app.dispose())

describe("a toy tool added through the lists", () => {
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
    expect(operation?.operationId).toBe("shout")
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

test("an API whose tool has no handlers is refused by the compiler (tsc -p . checks this line)", () => {
  // @effect-diagnostics-next-line missingLayerContext:off
  // @ts-expect-error the wage tool's handlers are missing: the application still needs them
  const incomplete: typeof HttpLive = makeHttp(ToolsApi, UserAgentLive)
  expect(incomplete).toBeDefined()
})

test("the service's own list is unchanged by the test's", () => {
  const tools = Object.values(ToolsApi.groups).filter((group) => group.identifier !== "system")
  expect(tools.flatMap((group) => Object.keys(group.endpoints))).toEqual(["userAgentParser", "wageEstimator"])
})
