/** The six estimates from the exact hourly rate, each rounded to cents once, half away from zero. */
import { Context, Effect, Layer, Result } from "effect"
import { InvalidValue } from "../../Errors.ts"
import { type Amount, amountOf, assumptions, type Field, FIELDS, type Ratio } from "./Amount.ts"
import type { Estimates } from "./Schemas.ts"

export type WageInput =
  | { readonly hourlyWage: Amount; readonly annualSalary?: never }
  | { readonly annualSalary: Amount; readonly hourlyWage?: never }

const { hoursPerDay, daysPerWeek, hoursPerYear } = assumptions

const times = ({ d, n }: Ratio, numerator: number, denominator = 1): Ratio => ({
  n: n * BigInt(numerator),
  d: d * BigInt(denominator)
})

const roundToCents = ({ d, n }: Ratio): number => Number((200n * n + d) / (2n * d)) / 100

const hourlyRate = (input: WageInput): Result.Result<Ratio, InvalidValue> => {
  const [field, amount]: readonly [Field, Amount] =
    input.hourlyWage !== undefined ? ["hourlyWage", input.hourlyWage] : ["annualSalary", input.annualSalary]
  return Result.mapBoth(amountOf(amount, FIELDS[field].max), {
    onFailure: (problem) =>
      new InvalidValue({ message: `${field} ${problem}`, details: [{ path: field, message: problem }] }),
    onSuccess: (rate) => (field === "hourlyWage" ? rate : times(rate, 1, hoursPerYear))
  })
}

/** All six estimates, or the 422 naming the field whose amount is not allowed. */
export const estimate = (input: WageInput): Result.Result<Estimates, InvalidValue> =>
  Result.map(hourlyRate(input), (hourly) => ({
    hourly: roundToCents(hourly),
    daily: roundToCents(times(hourly, hoursPerDay)),
    weekly: roundToCents(times(hourly, hoursPerDay * daysPerWeek)),
    biweekly: roundToCents(times(hourly, hoursPerDay * daysPerWeek * 2)),
    monthly: roundToCents(times(hourly, hoursPerYear, 12)),
    annual: roundToCents(times(hourly, hoursPerYear))
  }))

export class Estimator extends Context.Service<Estimator>()("app/WageEstimator", {
  make: Effect.succeed({ estimate: (input: WageInput) => Effect.suspend(() => Effect.fromResult(estimate(input))) })
}) {
  static readonly layer: Layer.Layer<Estimator> = Layer.effect(Estimator, Estimator.make)
}
