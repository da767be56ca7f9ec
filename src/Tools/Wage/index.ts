/** The wage tool: an hourly wage or an annual salary across six pay periods. */
import { Effect } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { InvalidValueWire } from "../../Errors.ts"
import * as Tool from "../Tool.ts"
import { assumptions, WageRequest, wageRequestJsonSchema, WageResponse } from "./Wage.ts"
import { Wages } from "./Wages.ts"

export const WageEstimator = HttpApiEndpoint.post("wageEstimator", "/wage-estimator", {
  payload: WageRequest,
  success: WageResponse,
  error: InvalidValueWire
}).annotateMerge(
  OpenApi.annotations({
    summary: "Convert an hourly wage or an annual salary across six pay periods",
    description:
      "Assumes 8 hours a day, 5 days a week, 52 weeks a year (2080 hours). Every estimate is computed from the " +
      "unrounded hourly rate and rounded to cents, half away from zero."
  })
)

export const WageTool = Tool.make({
  endpoints: [WageEstimator],
  handlers: Wages.useSync((wages): Tool.HandlersOf<typeof WageEstimator> => ({
    wageEstimator: ({ payload }) =>
      Effect.map(wages.estimate(payload), (estimates) => ({ success: true as const, estimates, assumptions }))
  })),
  layer: Wages.layer,
  jsonSchemas: { WageRequest: wageRequestJsonSchema }
})
