/**
 * The contract as an HttpApi: endpoints, payloads, successes and errors. It imports no services, so a client or
 * a test can use it without a server.
 */
import { Schema } from "effect"
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
} from "./Errors.ts"
import { describeAsServed } from "./ApiDocument.ts"
import { tools } from "./Tools/index.ts"
import * as Tool from "./Tools/Tool.ts"

/** API keys, the rate limit and the body checks, in that order, so a request without a key never gets a 400. */
export class Authorization extends HttpApiMiddleware.Service<Authorization>()("app/Authorization", {
  error: [UnauthorizedWire, RateLimitedWire, InvalidRequestWire, PayloadTooLargeWire],
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "An API key: `Authorization: Bearer <key>`")
    )
  }
}) {}

/**
 * A payload that does not match its schema becomes the contract's 400 (or 422 for a wage value) instead of the
 * framework's empty 400. It also declares the errors every route can answer.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("app/RequestErrors", {
  error: [InvalidRequestWire, NotFoundWire, MethodNotAllowedWire, InternalErrorWire, ServiceUnavailableWire]
}) {}

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

/**
 * The API over a list of tools: their endpoints in the `tools` group under /v1/tools, behind the API key, the rate
 * limit and the body checks; health beside them; the contract's errors on every route.
 */
export const makeApi = <const T extends Tool.Tools>(tools: T) =>
  HttpApi.make("tools-api")
    .add(
      HttpApiGroup.make("tools")
        .add(...Tool.endpoints(tools))
        .annotateMerge(
          OpenApi.annotations({
            title: "Tools",
            description: "Authenticated, 100 requests per minute per key by default"
          })
        )
    )
    .middleware(Authorization)
    .prefix("/v1/tools")
    .add(SystemGroup)
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
        transform: describeAsServed(Tool.jsonSchemas(tools))
      })
    )

/** The API the service serves: every tool of `Tools/index.ts`. */
export const ToolsApi = makeApi(tools)
