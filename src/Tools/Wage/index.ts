/** The wage tool's handlers: its group served by the estimator, on the payload its schema decoded exactly. */
import { Effect, Layer } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { ToolsApi } from "../../Api.ts"
import { Estimator } from "./Estimator.ts"
import { assumptions, type WageResponse } from "./Schemas.ts"

export const WageHandlers = HttpApiBuilder.group(
  ToolsApi,
  "wage",
  Effect.fnUntraced(function* (handlers) {
    const estimator = yield* Estimator
    return handlers.handle("wageEstimator", ({ payload }) =>
      Effect.map(estimator.estimate(payload), (estimates) => {
        const response: typeof WageResponse.Type = { success: true, estimates, assumptions }
        // written unencoded, as the user-agent tool's answers are (its index.ts says why)
        return HttpServerResponse.jsonUnsafe(response)
      })
    )
  })
)

export const WageLive = WageHandlers.pipe(Layer.provide(Estimator.layer))
