/** The contract as an HttpApi; it imports contracts only, so a client bundle of it carries no server code. */
import { type Array as Arr, Context, type Effect, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { describeAsServed } from "./ApiDocument.ts"
import {
  InternalErrorWire,
  type InvalidRequest,
  InvalidRequestWire,
  MethodNotAllowedWire,
  NotFoundWire,
  PayloadTooLargeWire,
  type RateLimited,
  RateLimitedWire,
  ServiceUnavailableWire,
  UnauthorizedWire
} from "./Errors.ts"
import type { Caller } from "./Services/Caller.ts"
import { UserAgentGroup } from "./Tools/UserAgent/Contract.ts"
import { WageGroup } from "./Tools/Wage/Contract.ts"

/** The caller the Authentication middleware found, for the steps after it. */
export class CurrentCaller extends Context.Service<CurrentCaller, Caller>()("app/CurrentCaller") {}

/** The caller's further tokens, for a batch that takes one a string: its handler takes them once it is decoded. */
export class BatchTokens extends Context.Service<
  BatchTokens,
  {
    /** The rest of a batch of `size` (the request's own token is taken on arrival): all of them, or none. */
    readonly take: (
      size: number
    ) => Effect.Effect<void, RateLimited | InvalidRequest, CurrentCaller | HttpServerRequest.HttpServerRequest>
  }
>()("app/BatchTokens") {}

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

/** A JSON Content-Type and a body within the size limit; the endpoint's schema then decodes the body read. */
export class RequestBody extends HttpApiMiddleware.Service<RequestBody>()("app/RequestBody", {
  error: [InvalidRequestWire, PayloadTooLargeWire]
}) {}

/** Takes the request's one token or answers 429, whatever comes next: every request of a known caller pays. */
export class RateLimit extends HttpApiMiddleware.Service<RateLimit, { requires: CurrentCaller }>()("app/RateLimit", {
  error: [RateLimitedWire]
}) {}

/** A payload its schema refuses is the contract's 400, not the framework's empty one; the errors every route has. */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("app/RequestErrors", {
  error: [InvalidRequestWire, NotFoundWire, MethodNotAllowedWire, InternalErrorWire, ServiceUnavailableWire]
}) {}

/**
 * With the input in its issues, so an error can name the form a body was meant to be (the command line too); a field
 * the endpoint does not take is refused, as the contract says, not dropped.
 */
export const PAYLOAD_PARSE_OPTIONS = { reportInput: true, onExcessProperty: "error" } as const

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
    .middleware(RequestBody)
    .middleware(RateLimit)
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
