import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ValueErrors } from "../../Errors.ts"
import { WageBody, WageResponse } from "./Schemas.ts"

export const WageEstimator = HttpApiEndpoint.post("wageEstimator", "/wage-estimator", {
  payload: WageBody,
  success: WageResponse
}).annotateMerge(
  OpenApi.annotations({
    summary: "Convert an hourly wage or an annual salary across six pay periods",
    description:
      "Assumes 8 hours a day, 5 days a week, 52 weeks a year (2080 hours). Every estimate is computed from the " +
      "unrounded hourly rate and rounded to cents, half away from zero."
  })
)

export class WageGroup extends HttpApiGroup.make("wage", { topLevel: true })
  .add(WageEstimator)
  .middleware(ValueErrors)
  .annotateMerge(OpenApi.annotations({ title: "Wage", description: "Hourly wage and annual salary, both ways" })) {}
