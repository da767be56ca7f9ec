/** The OpenAPI document is the contract's public face: a snapshot makes every change to it visible in review. */
import { OpenApi } from "effect/http-api"
import { describe, expect, test } from "bun:test"
import { ToolsApi } from "../src/Api.ts"

const spec = OpenApi.fromApi(ToolsApi) as any

describe("OpenAPI document", () => {
  test("matches the reviewed snapshot", () => {
    expect(JSON.stringify(spec, null, 2)).toMatchSnapshot()
  })

  test("documents only the one error envelope, never the framework's decode error", () => {
    const text = JSON.stringify(spec)
    expect(text).not.toContain("HttpApiDecodeError")
    expect(text).not.toContain('"_tag"')
    const invalid = spec.paths["/v1/tools/wage-estimator"].post.responses["400"].content["application/json"].schema
    expect(invalid).toEqual({ $ref: "#/components/schemas/InvalidRequest" })
  })

  test("every /v1 operation declares bearer security and the statuses of the contract", () => {
    for (const path of ["/v1/tools/user-agent-parser", "/v1/tools/wage-estimator"]) {
      const operation = spec.paths[path].post
      expect(operation.security).toEqual([{ bearer: [] }])
      for (const status of ["200", "400", "401", "413", "429", "500", "503"]) {
        expect(Object.keys(operation.responses)).toContain(status)
      }
    }
    expect(Object.keys(spec.paths["/v1/tools/wage-estimator"].post.responses)).toContain("422")
  })

  test("the 429 body's retryAfterSeconds is documented as its Retry-After is: a whole number, at least 1", () => {
    const body = spec.components.schemas.RateLimited.properties.error.properties.retryAfterSeconds
    expect(body).toMatchObject({ type: "integer", minimum: 1 })
  })

  test("schemas carry descriptions and examples for the docs", () => {
    const schemas = spec.components.schemas
    expect(schemas.WageRequest.examples).toBeDefined()
    expect(schemas.UserAgentResponse.examples).toBeDefined()
    expect(schemas.WageResponse.examples[0].estimates.monthly).toBe(4166.67)
  })
})

test("request bodies allow no other field, as the service refuses one", () => {
  for (const name of ["ParseRequest", "GenerateRequest"]) {
    expect(spec.components.schemas[name].additionalProperties).toBe(false)
  }
  for (const form of spec.components.schemas.WageRequest.oneOf) expect(form.additionalProperties).toBe(false)
  expect(spec.components.schemas.WageResponse.additionalProperties).toBe(false)
})
