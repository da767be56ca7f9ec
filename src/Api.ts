/**
 * The contract as an HttpApi: endpoints, payloads, successes and errors. It imports no services, so a client or
 * a test can use it without a server.
 */
import { Context, Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
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
import { UserAgentRequest, UserAgentResponse } from "./Tools/UserAgent/UserAgent.ts"
import { WageRequest, WageResponse } from "./Tools/Wage/Wage.ts"
import { describeAsServed } from "./ApiDocument.ts"

/** The authenticated caller: `key_` and the first 8 hex digits of the key's SHA-256 digest, never the key. */
export class Caller extends Context.Service<Caller, { readonly id: string }>()("app/Caller") {}

/** API keys, the rate limit and the body checks, in that order, so a request without a key never gets a 400. */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: Caller }>()(
  "app/Authorization",
  {
    error: [UnauthorizedWire, RateLimitedWire, InvalidRequestWire, PayloadTooLargeWire],
    security: {
      bearer: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "An API key: `Authorization: Bearer <key>`")
      )
    }
  }
) {}

/**
 * A payload that does not match its schema becomes the contract's 400 (or 422 for a wage value) instead of the
 * framework's empty 400. It also declares the errors every route can answer.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("app/RequestErrors", {
  error: [InvalidRequestWire, NotFoundWire, MethodNotAllowedWire, InternalErrorWire, ServiceUnavailableWire]
}) {}

export class ToolsGroup extends HttpApiGroup.make("tools")
  .add(
    HttpApiEndpoint.post("userAgentParser", "/user-agent-parser", {
      payload: UserAgentRequest,
      success: UserAgentResponse
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Parse a user agent, or generate a realistic one",
        description:
          "`parse` names the browser, OS, device, CPU, engine and bot behind a User-Agent string, by family " +
          "(Chrome, Firefox, Safari, Edge, IE; Windows, macOS, iOS, Android, Linux; Desktop, Mobile, Tablet). " +
          "`generate` returns a current, real-world user agent, optionally of a given family, and its parse."
      })
    ),
    HttpApiEndpoint.post("wageEstimator", "/wage-estimator", {
      payload: WageRequest,
      success: WageResponse,
      error: InvalidValueWire
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Convert an hourly wage or an annual salary across six pay periods",
        description:
          "Assumes 8 hours a day, 5 days a week, 52 weeks a year (2080 hours). Every estimate is computed from the " +
          "unrounded hourly rate and rounded to cents, half away from zero."
      })
    )
  )
  .middleware(Authorization)
  .prefix("/v1/tools")
  .annotateMerge(
    OpenApi.annotations({ title: "Tools", description: "Authenticated, 100 requests per minute per key by default" })
  ) {}

export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotate({ identifier: "Health" })

export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health", { success: Health }).annotateMerge(
      OpenApi.annotations({
        summary: "Liveness: 200 while serving, 503 while draining on shutdown",
        description: 'For load balancers and orchestrators: `{"status":"ok"}` while the process serves requests.'
      })
    )
  )
  .annotateMerge(
    OpenApi.annotations({ title: "System", description: "Health, unauthenticated and never rate limited" })
  ) {}

export class ToolsApi extends HttpApi.make("tools-api")
  .add(ToolsGroup, SystemGroup)
  .middleware(RequestErrors)
  .annotate(HttpApi.PayloadParseOptions, { reportInput: true })
  .annotateMerge(
    OpenApi.annotations({
      title: "Tools API",
      version: "1.0.0",
      description:
        "A user-agent parser/generator and a wage estimator. Every error has one shape: " +
        "`{ success: false, error: { code, message, details? } }`.",
      license: { name: "AGPL-3.0-or-later", url: "https://www.gnu.org/licenses/agpl-3.0.html" },
      transform: describeAsServed
    })
  ) {}
