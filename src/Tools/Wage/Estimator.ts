/** The six estimates from the exact hourly rate, each rounded to cents once, half away from zero. */
import { type BigDecimal, Context, Effect, Layer } from "effect"
import { assumptions } from "./Amount.ts"
import type { Estimates, WageRequest } from "./Schemas.ts"

/**
 * An exact non-negative rational n/d. BigDecimal.divide stops at 100 digits and rounds the last one, so a crafted
 * 100-digit amount could round a cent the wrong way: the divisions by 2080 and by 12 are kept exact here.
 */
interface Ratio {
  readonly n: bigint
  readonly d: bigint
}

const { hoursPerDay, daysPerWeek, hoursPerYear } = assumptions

const ratioOf = ({ scale, value }: BigDecimal.BigDecimal): Ratio =>
  scale >= 0 ? { n: value, d: 10n ** BigInt(scale) } : { n: value * 10n ** BigInt(-scale), d: 1n }

const times = ({ d, n }: Ratio, numerator: number, denominator = 1): Ratio => ({
  n: n * BigInt(numerator),
  d: d * BigInt(denominator)
})

const roundToCents = ({ d, n }: Ratio): number => Number((200n * n + d) / (2n * d)) / 100

const hourlyRate = (request: WageRequest): Ratio =>
  request.hourlyWage !== undefined ? ratioOf(request.hourlyWage) : times(ratioOf(request.annualSalary), 1, hoursPerYear)

/** All six estimates of a decoded request, whose amount its schema has already judged. */
export const estimate = (request: WageRequest): Estimates => {
  const hourly = hourlyRate(request)
  return {
    hourly: roundToCents(hourly),
    daily: roundToCents(times(hourly, hoursPerDay)),
    weekly: roundToCents(times(hourly, hoursPerDay * daysPerWeek)),
    biweekly: roundToCents(times(hourly, hoursPerDay * daysPerWeek * 2)),
    monthly: roundToCents(times(hourly, hoursPerYear, 12)),
    annual: roundToCents(times(hourly, hoursPerYear))
  }
}

export class Estimator extends Context.Service<Estimator>()("app/WageEstimator", {
  make: Effect.succeed({ estimate: (request: WageRequest) => Effect.sync(() => estimate(request)) })
}) {
  static readonly layer: Layer.Layer<Estimator> = Layer.effect(Estimator, Estimator.make)
}
