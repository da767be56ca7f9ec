/**
 * The contract as an HttpApi: every tool's group under /v1/tools behind the middleware it runs through (declared
 * here, implemented in `Http/`), health beside them, the contract's errors on every route. It imports contracts
 * only, so a client bundle of it carries no parser, no data set and no server code.
 */
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
import { UserAgentGroup } from "./Tools/UserAgent/Contract.ts"
import { WageGroup } from "./Tools/Wage/Contract.ts"

/** Who is calling: a known API key, named by its digest, never by its text (`key_<8 hex>`), and its bucket. */
export class CurrentCaller extends Context.Service<CurrentCaller, { readonly id: string; readonly bucket: string }>()(
  "app/CurrentCaller"
) {}

/** The body as `RequestBody` judged it: its text and the JSON object it holds, or why it is refused. */
export class Body extends Context.Service<
  Body,
  { readonly text: string; readonly json: object } | { readonly refused: InvalidRequest | PayloadTooLarge }
>()("app/Body") {}

/**
 * The API key: provides the caller, or answers 401 (429 once the client's address is over its failed-authentication
 * budget). It runs first, so a request without a key never gets a 400.
 */
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

/** The body, read within the size limit and judged: a JSON object of bounded depth with the endpoint's fields. */
export class RequestBody extends HttpApiMiddleware.Service<RequestBody, { provides: Body }>()("app/RequestBody") {}

/**
 * The caller's token bucket: a request's tokens (one, or a batch's one a string), or 429, then the body's verdict
 * (400/413); the rate-limit headers on every answer to the caller.
 */
export class RateLimit extends HttpApiMiddleware.Service<RateLimit, { requires: CurrentCaller | Body }>()(
  "app/RateLimit",
  { error: [RateLimitedWire, InvalidRequestWire, PayloadTooLargeWire] }
) {}

/**
 * A payload that does not match its schema becomes the contract's 400 instead of the framework's empty 400. It also
 * declares the errors every route can answer.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("app/RequestErrors", {
  error: [InvalidRequestWire, NotFoundWire, MethodNotAllowedWire, InternalErrorWire, ServiceUnavailableWire]
}) {}

/**
 * How the API decodes a payload, for the framework and for anything that decodes a request the same way (the
 * command line): with the input in its issues, so an error can name the form a body was meant to be.
 */
export const PAYLOAD_PARSE_OPTIONS = { reportInput: true } as const

/** Where the tools are served: every route under it is behind the API key and the rate limit. */
export const TOOLS_PREFIX = "/v1/tools"

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
 * The API over the tools' groups: under /v1/tools, behind the API key, the body checks and the rate limit
 * (outermost first: the framework applies the last added outermost); health beside them; the contract's errors on
 * every route.
 */
export const makeApi = <const Tools extends Arr.NonEmptyReadonlyArray<HttpApiGroup.Constraint>>(...tools: Tools) =>
  HttpApi.make("tools-api")
    .add(...tools)
    .prefix(TOOLS_PREFIX)
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

/** The API the service serves: the tools, one line each (each tool's handlers are in its folder's `index.ts`). */
export const ToolsApi = makeApi(UserAgentGroup, WageGroup)
