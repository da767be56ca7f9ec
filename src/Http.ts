/** The HTTP application without a server: the platform serves it; tests call it in process. */
import { Effect, Layer } from "effect"
import { type HttpApi, HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { ToolsApi } from "./Api.ts"
import { AuthenticationLive } from "./Http/Authentication.ts"
import { documentsRoutes, HomeRoute } from "./Http/Documents.ts"
import { EdgeLive } from "./Http/Edge.ts"
import { BatchTokensLive, RateLimitLive } from "./Http/RateLimit.ts"
import { RequestBodyLive } from "./Http/RequestBody.ts"
import { RequestErrorsLive, ValueErrorsLive } from "./Http/SchemaErrors.ts"
import { MetricsRoute } from "./Observability/Metrics.ts"
import { ToolsLive } from "./Tools/index.ts"

// While draining, the edge answers 503 before a request gets here.
const SystemLive = HttpApiBuilder.group(ToolsApi, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed({ status: "ok" as const }))
)

/** The API's routes with their middlewares, without the edge around them. */
export const makeApiRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint, A, E, R>(
  api: HttpApi.HttpApi<Id, Groups>,
  handlers: Layer.Layer<A, E, R>
) =>
  HttpApiBuilder.layer(api).pipe(
    Layer.provide([handlers, SystemLive]),
    Layer.provide([
      AuthenticationLive,
      RateLimitLive,
      BatchTokensLive,
      RequestBodyLive,
      RequestErrorsLive,
      ValueErrorsLive
    ])
  )

export const makeHttp = <Id extends string, Groups extends HttpApiGroup.Constraint, A, E, R>(
  api: HttpApi.HttpApi<Id, Groups>,
  handlers: Layer.Layer<A, E, R>
) => Layer.mergeAll(makeApiRoutes(api, handlers), HomeRoute, documentsRoutes(api), MetricsRoute, EdgeLive)

export const HttpLive = makeHttp(ToolsApi, ToolsLive)
