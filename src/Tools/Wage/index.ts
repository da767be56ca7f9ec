/** The wage tool's handlers: its group served by the wage calculator, each amount read as written in the body. */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ToolsApi } from "../../Api.ts"
import { assumptions } from "./Wage.ts"
import { Wages } from "./Wages.ts"
import { inputOf } from "./Written.ts"

export const WageHandlers = HttpApiBuilder.group(
  ToolsApi,
  "wage",
  Effect.fnUntraced(function* (handlers) {
    const wages = yield* Wages
    // The framework keeps the body it read for the payload: the text again is no second read.
    return handlers.handle("wageEstimator", ({ payload, request }) =>
      Effect.flatMap(Effect.orDie(request.text), (body) =>
        Effect.map(wages.estimate(inputOf(payload, body)), (estimates) => ({
          success: true as const,
          estimates,
          assumptions
        }))
      )
    )
  })
)

export const WageLive = WageHandlers.pipe(Layer.provide(Wages.layer))
