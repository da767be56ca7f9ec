/**
 * The whole HTTP application without a server, as router layers: the API's handlers and middleware, the edge
 * around every route, the home page, the OpenAPI document, the interactive docs and metrics. The platform serves
 * it; tests call it in process through the same layer.
 */
import { Effect, Layer } from "effect"
import { type HttpApi, HttpApiBuilder } from "effect/http-api"
import { ToolsApi } from "./Api.ts"
import { AuthenticationLive } from "./Http/Authentication.ts"
import { DocsRoute } from "./Http/Docs.ts"
import { EdgeLive } from "./Http/Edge.ts"
import { HomeRoute } from "./Http/Home.ts"
import { MetricsRoute } from "./Observability/Metrics.ts"
import { OpenApiRoute } from "./Http/OpenApiRoute.ts"
import { RateLimitLive } from "./Http/RateLimit.ts"
import { MaxBodySizeLive, RequestBodyLive } from "./Http/RequestBody.ts"
import { ApiRoutes } from "./Http/Routes.ts"
import { RequestErrorsLive } from "./Http/SchemaErrors.ts"
import { tools } from "./Tools/index.ts"
import * as Tool from "./Tools/Tool.ts"

const ok = { status: "ok" } as const

/** The application serving `api`, which `makeApi(tools)` made: the same list gives the handlers. */
export const makeHttp = <T extends Tool.Tools>(api: HttpApi.HttpApi<"tools-api", any>, tools: T) =>
  Layer.mergeAll(
    HttpApiBuilder.layer(api as typeof ToolsApi).pipe(
      Layer.provide([
        Tool.handlersLayer(api, tools),
        // While draining, the edge answers 503 before a request gets here.
        HttpApiBuilder.group(api as typeof ToolsApi, "system", (handlers) =>
          handlers.handle("health", () => Effect.succeed(ok))
        )
      ]),
      Layer.provide([AuthenticationLive, RateLimitLive, RequestBodyLive, RequestErrorsLive])
    ),
    HomeRoute,
    OpenApiRoute,
    DocsRoute,
    MetricsRoute,
    EdgeLive,
    MaxBodySizeLive
  ).pipe(Layer.provide(ApiRoutes.layer(api)))

export const HttpLive = makeHttp(ToolsApi, tools)
