/**
 * The contract as an HttpApi: endpoints, payloads, successes and errors. It imports no services, so a client or
 * a test can use it without a server.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Schema } from "effect"
import {
  InternalErrorWire,
  InvalidRequestWire,
  InvalidValueWire,
  MethodNotAllowedWire,
  NotFoundWire,
  PayloadTooLargeWire,
  RateLimitedWire,
  ServiceUnavailableWire,
  UnauthorizedWire
} from "./Domain/Errors.ts"
import { UserAgentRequest, UserAgentResponse } from "./Domain/UserAgent.ts"
import { WageRequest, WageResponse } from "./Domain/Wage.ts"

/** The authenticated caller: `key_` and the first 8 hex digits of the key's SHA-256 digest, never the key. */
export class Caller extends Context.Tag("app/Caller")<Caller, { readonly id: string }>() {}

export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("app/Authorization", {
  failure: Schema.Union(UnauthorizedWire, RateLimitedWire, InvalidRequestWire, PayloadTooLargeWire),
  provides: Caller,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "An API key: `Authorization: Bearer <key>`")
    )
  }
}) {}

export class ToolsGroup extends HttpApiGroup.make("tools")
  .add(
    HttpApiEndpoint.post("userAgentParser", "/user-agent-parser")
      .setPayload(UserAgentRequest)
      .addSuccess(UserAgentResponse)
      .annotate(OpenApi.Summary, "Parse a user agent, or generate a realistic one")
      .annotate(
        OpenApi.Description,
        "`parse` names the browser, OS, device, CPU, engine and bot behind a User-Agent string, by family " +
          "(Chrome, Firefox, Safari, Edge, IE; Windows, macOS, iOS, Android, Linux; Desktop, Mobile, Tablet). " +
          "`generate` returns a current, real-world user agent, optionally of a given family, and its parse."
      )
  )
  .add(
    HttpApiEndpoint.post("wageEstimator", "/wage-estimator")
      .setPayload(WageRequest)
      .addSuccess(WageResponse)
      .addError(InvalidValueWire)
      .annotate(OpenApi.Summary, "Convert an hourly wage or an annual salary across six pay periods")
      .annotate(
        OpenApi.Description,
        "Assumes 8 hours a day, 5 days a week, 52 weeks a year (2080 hours). Every estimate is computed from the " +
          "unrounded hourly rate and rounded to cents, half away from zero."
      )
  )
  .middleware(Authorization)
  .prefix("/v1/tools")
  .annotate(OpenApi.Title, "Tools")
  .annotate(OpenApi.Description, "Authenticated, 100 requests per minute per key by default") {}

export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" })

export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Liveness: 200 while serving, 503 while draining on shutdown")
  )
  .annotate(OpenApi.Title, "System") {}

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"

/** Request bodies ignore unknown fields; the generated schemas say `additionalProperties: false` unless told. */
const REQUEST_SCHEMAS = ["ParseRequest", "GenerateRequest", "WageRequest"]

/**
 * Every HttpApi declares the framework's `HttpApiDecodeError` (400, `{ _tag, issues, message }`). This service maps
 * it to the envelope before it is encoded, so that shape never reaches a client: the document drops it too.
 */
const describeAsServed = (spec: Record<string, any>): Record<string, any> => {
  for (const item of Object.values<Record<string, any>>(spec.paths ?? {})) {
    for (const operation of Object.values<Record<string, any>>(item)) {
      const response = operation?.responses?.["400"]
      const content = response?.content?.["application/json"]
      const anyOf: Array<{ $ref?: string }> | undefined = content?.schema?.anyOf
      if (anyOf === undefined) continue
      const rest = anyOf.filter((schema) => schema.$ref !== DECODE_ERROR_REF)
      content.schema = rest.length === 1 ? rest[0] : { anyOf: rest }
      response.description = "InvalidRequest"
    }
  }
  const schemas = spec.components?.schemas ?? {}
  for (const name of ["HttpApiDecodeError", "Issue", "PropertyKey"]) delete schemas[name]
  for (const name of REQUEST_SCHEMAS) if (schemas[name] !== undefined) delete schemas[name].additionalProperties
  return spec
}

export class ToolsApi extends HttpApi.make("tools-api")
  .add(ToolsGroup)
  .add(SystemGroup)
  .addError(InvalidRequestWire)
  .addError(NotFoundWire)
  .addError(MethodNotAllowedWire)
  .addError(InternalErrorWire)
  .addError(ServiceUnavailableWire)
  .annotate(OpenApi.Title, "Tools API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "A user-agent parser/generator and a wage estimator. Every error has one shape: " +
      "`{ success: false, error: { code, message, details? } }`."
  )
  .annotate(OpenApi.License, { name: "AGPL-3.0-or-later", url: "https://www.gnu.org/licenses/agpl-3.0.html" })
  .annotate(OpenApi.Transform, describeAsServed) {}
