/**
 * The whole HTTP application without a server: API groups wired to their handlers, the error mapping, the
 * OpenAPI document, the interactive docs and metrics. `main.ts` serves it; tests call it in process.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import { Effect, Layer, Scope } from "effect"
import { ToolsApi } from "./Api.ts"
import { AuthorizationLive } from "./Http/Authorization.ts"
import { ErrorMappingLive } from "./Http/ErrorMapping.ts"
import { MetricsRoute } from "./Http/Metrics.ts"
import { DOCS_PATH, OPENAPI_PATH } from "./Http/Routes.ts"
import { SystemLive } from "./Http/System.ts"
import { ToolsLive } from "./Http/Tools.ts"

export { edge } from "./Http/Edge.ts"

/**
 * Scalar inlines its JavaScript (no CDN); its default fonts come from elsewhere, so they are off. The page (3.3 MB
 * of it that script) is built on the first request for it, not at every start, where it took ~35 ms of the
 * binary's 230 ms to a first response: Scalar's own route, on a router of its own, made once and kept.
 */
const DocsLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const page = yield* Effect.cached(
      Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
        Effect.flatMap((HttpApiScalar) =>
          HttpLayerRouter.toHttpEffect(
            HttpApiScalar.layerHttpLayerRouter({ api: ToolsApi, path: DOCS_PATH, scalar: { withDefaultFonts: false } })
          )
        ),
        Scope.extend(scope)
      )
    )
    yield* router.get(DOCS_PATH, Effect.flatten(page))
  })
)

export const ApiLive = HttpApiBuilder.api(ToolsApi).pipe(
  Layer.provide([ToolsLive, SystemLive]),
  Layer.provide(AuthorizationLive)
)

/**
 * No span per request on the API's own routes: nothing exports them, and the tracer middleware (a span with a dozen
 * attributes, the URL parsed, the headers redacted) cost a third of a request. A layer setting that is inherited
 * by the server built after it, for the platform's servers (the tests' `toWebHandler`); the service's own
 * (`Http/BunServer.ts`) opens no span at all.
 */
const TracerOffOnApiRoutes = Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, (request) =>
  request.url.startsWith("/v1/")
)

export const HttpLive = Layer.mergeAll(
  DocsLive,
  HttpApiBuilder.middlewareOpenApi({ path: OPENAPI_PATH }),
  MetricsRoute,
  ErrorMappingLive,
  TracerOffOnApiRoutes
).pipe(Layer.provideMerge(ApiLive))
