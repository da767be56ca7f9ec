/**
 * The framework's floor: the two tool endpoints and /health as a minimal Effect 4 HttpApi, with the service's own
 * schemas, services and handlers, and nothing else: no authentication, rate limit, body checks, error
 * mapping, request log, metrics, request ids, drain or edge middleware. Served on `Bun.serve` through the framework's
 * own web handler (`HttpRouter.toWebHandler`, its logger off). What an Effect HttpApi costs per request before any
 * feature; `bun run bench` reports the service against it as well as against the bare-Bun baseline (`bench/floor.ts`
 * serves it), `bun bench/ab.ts floor` in process.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Metrics } from "../src/Observability/Metrics.ts"
import { UserAgentRequest, UserAgentResponse } from "../src/Tools/UserAgent/Schemas.ts"
import { assumptions, WageRequest, WageResponse } from "../src/Tools/Wage/Schemas.ts"
import { UserAgents } from "../src/Tools/UserAgent/Service.ts"
import { Slicer } from "../src/Tools/UserAgent/Slicer.ts"
import { answer } from "../src/Tools/UserAgent/index.ts"
import { Estimator } from "../src/Tools/Wage/Estimator.ts"

const Api = HttpApi.make("floor")
  .add(
    HttpApiGroup.make("tools")
      .add(
        HttpApiEndpoint.post("userAgentParser", "/user-agent-parser", {
          payload: UserAgentRequest,
          success: UserAgentResponse
        }),
        HttpApiEndpoint.post("wageEstimator", "/wage-estimator", { payload: WageRequest, success: WageResponse })
      )
      .prefix("/v1/tools")
  )
  .add(
    HttpApiGroup.make("system").add(
      HttpApiEndpoint.get("health", "/health", { success: Schema.Struct({ status: Schema.Literal("ok") }) })
    )
  )

const Tools = HttpApiBuilder.group(
  Api,
  "tools",
  Effect.fnUntraced(function* (handlers) {
    const userAgents = yield* UserAgents
    const estimator = yield* Estimator
    return handlers.handleAll({
      userAgentParser: ({ payload }) => Effect.orDie(answer(userAgents, payload)),
      wageEstimator: ({ payload }) =>
        Effect.map(Effect.orDie(estimator.estimate(payload)), (estimates) => ({
          success: true as const,
          estimates,
          assumptions
        }))
    })
  })
)

const System = HttpApiBuilder.group(Api, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed({ status: "ok" as const }))
)

/** The floor's application, served by `bench/floor.ts` and driven in process by `bench/ab.ts floor`. */
export const FloorApp = HttpApiBuilder.layer(Api).pipe(
  Layer.provide([Tools, System]),
  Layer.provide([UserAgents.layer, Estimator.layer]),
  Layer.provide(Slicer.layer),
  // the parse cache's size from UA_CACHE_SIZE, as the service reads it
  Layer.provide(Metrics.layer),
  Layer.provide(HttpServer.layerServices)
)
