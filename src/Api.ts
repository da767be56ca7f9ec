/** The contract as an HttpApi; it imports contracts only, so a client bundle of it carries no server code. */
import { type Array as Arr, Context, Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { describeAsServed } from "./ApiDocument.ts"
import {
  type InvalidRequest,
  InternalErrorWire,
  InvalidRequestWire,
  MethodNotAllowedWire,
  NotFoundWire,
  type PayloadTooLarge,
  PayloadTooLargeWire,
  RateLimitedWire,
  ServiceUnavailableWire,
  UnauthorizedWire
} from "./Errors.ts"
import type { Caller } from "./Services/Caller.ts"
import { UserAgentGroup } from "./Tools/UserAgent/Contract.ts"
import { WageGroup } from "./Tools/Wage/Contract.ts"

/** The caller the Authentication middleware found, for the steps after it. */
export class CurrentCaller extends Context.Service<CurrentCaller, Caller>()("app/CurrentCaller") {}

/** The body as `RequestBody` judged it: its text and the JSON object it holds, or why it is refused. */
export class Body extends Context.Service<
  Body,
  { readonly text: string; readonly json: object } | { readonly refused: InvalidRequest | PayloadTooLarge }
>()("app/Body") {}

/** Runs first, so a request without a key never gets a 400. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentCaller }>()(
  "app/Authentication",
  {
    error: [UnauthorizedWire, RateLimitedWire],
    security: {
      bearer: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "An API key: `Authorization: Bearer <key>`")
      )
    }
  }
) {}

export class RequestBody extends HttpApiMiddleware.Service<RequestBody, { provides: Body }>()("app/RequestBody") {}

/** Takes the request's tokens, then answers a refused body: every request of a known caller takes its tokens. */
export class RateLimit extends HttpApiMiddleware.Service<RateLimit, { requires: CurrentCaller | Body }>()(
  "app/RateLimit",
  { error: [RateLimitedWire, InvalidRequestWire, PayloadTooLargeWire] }
) {}

/** A payload its schema refuses is the contract's 400, not the framework's empty one; the errors every route has. */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("app/RequestErrors", {
  error: [InvalidRequestWire, NotFoundWire, MethodNotAllowedWire, InternalErrorWire, ServiceUnavailableWire]
}) {}

/** With the input in its issues, so an error can name the form a body was meant to be (the command line too). */
export const PAYLOAD_PARSE_OPTIONS = { reportInput: true } as const

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

/** The middleware outermost first: the framework applies the last one added outermost. */
export const makeApi = <const Tools extends Arr.NonEmptyReadonlyArray<HttpApiGroup.Constraint>>(...tools: Tools) =>
  HttpApi.make("tools-api")
    .add(...tools)
    .prefix("/v1/tools")
    .middleware(RateLimit)
    .middleware(RequestBody)
    .middleware(Authentication)
    .add(SystemGroup)
    .middleware(RequestErrors)
    .annotate(HttpApi.PayloadParseOptions, PAYLOAD_PARSE_OPTIONS)
    .annotateMerge(
      OpenApi.annotations({
        title: "Tools API",
        version: "1.0.0",
        description:
          "A user-agent parser/generator and a wage estimator. Every tool needs an API key and is rate limited " +
          "(100 requests a minute per key by default). Every error has one shape: " +
          "`{ success: false, error: { code, message, details? } }`.",
        license: { name: "AGPL-3.0-or-later", url: "https://www.gnu.org/licenses/agpl-3.0.html" },
        transform: describeAsServed
      })
    )

export const ToolsApi = makeApi(UserAgentGroup, WageGroup)
