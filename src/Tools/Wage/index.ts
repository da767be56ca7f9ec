/** The wage tool's handlers: its group served by the estimator, each amount read as written in the body. */
import { Effect, Layer } from "effect"
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
      Effect.service(Body).pipe(
        Effect.flatMap((body) => estimator.estimate(inputOf(payload, "text" in body ? body.text : ""))),
        Effect.map((estimates) => ({ success: true as const, estimates, assumptions }))
      )
    )
  })
)

export const WageLive = WageHandlers.pipe(Layer.provide(Estimator.layer))
