/**
 * The whole HTTP application without a server, as router layers: the API's handlers and middleware, the edge
 * around every route, the home page, the OpenAPI document, the interactive docs and metrics. The platform serves
 * it; tests call it in process through the same layer.
 */
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ToolsApi } from "./Api.ts"
import { AuthorizationLive } from "./Http/Authorization.ts"
import { EdgeLive } from "./Http/Edge.ts"
import { MetricsRoute } from "./Http/Metrics.ts"
import { DocsRoute } from "./Http/Docs.ts"
import { HomeRoute } from "./Http/Home.ts"
import { OpenApiRoute } from "./Http/OpenApiRoute.ts"
import { RequestErrorsLive } from "./Http/SchemaErrors.ts"
import { SystemHandlers } from "./Http/System.ts"
import { ToolsHandlers } from "./Http/Tools.ts"

const ApiRoutes = HttpApiBuilder.layer(ToolsApi).pipe(
  Layer.provide([ToolsHandlers, SystemHandlers]),
  Layer.provide([AuthorizationLive, RequestErrorsLive])
)

export const HttpLive = Layer.mergeAll(ApiRoutes, HomeRoute, OpenApiRoute, DocsRoute, MetricsRoute, EdgeLive)
