/** The wage tool's handlers: its group served by the wage calculator, each amount read as written in the body. */
import { Context, Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Body, ToolsApi } from "../../Api.ts"
import { assumptions } from "./Wage.ts"
import { Wages } from "./Wages.ts"
import { inputOf } from "./Written.ts"

export const WageHandlers = HttpApiBuilder.group(
  ToolsApi,
  "wage",
  Effect.fnUntraced(function* (handlers) {
    const wages = yield* Wages
    return handlers.handle("wageEstimator", ({ payload }) =>
      Effect.contextWith((context: Context.Context<Body>) => {
        const body = Context.get(context, Body)
        return Effect.map(wages.estimate(inputOf(payload, "text" in body ? body.text : "")), (estimates) => ({
          success: true as const,
          estimates,
          assumptions
        }))
      })
    )
  })
)

export const WageLive = WageHandlers.pipe(Layer.provide(Wages.layer))
