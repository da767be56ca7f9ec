/** The wage tool's handlers: its group served by the estimator, each amount read as written in the body. */
import { Context, Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Body, ToolsApi } from "../../Api.ts"
import { Estimator } from "./Estimator.ts"
import { assumptions } from "./Schemas.ts"
import { inputOf } from "./SourceText.ts"

export const WageHandlers = HttpApiBuilder.group(
  ToolsApi,
  "wage",
  Effect.fnUntraced(function* (handlers) {
    const estimator = yield* Estimator
    return handlers.handle("wageEstimator", ({ payload }) =>
      Effect.contextWith((context: Context.Context<Body>) => {
        const body = Context.get(context, Body)
        return Effect.map(estimator.estimate(inputOf(payload, "text" in body ? body.text : "")), (estimates) => ({
          success: true as const,
          estimates,
          assumptions
        }))
      })
    )
  })
)

export const WageLive = WageHandlers.pipe(Layer.provide(Estimator.layer))
