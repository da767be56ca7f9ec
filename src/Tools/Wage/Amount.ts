/** A wage amount: its bounds, and its exact decimal value as written, so no float error moves a cent. */
import { BigDecimal, Option, Result } from "effect"

/** The working time every estimate assumes; hoursPerYear is the other three's product. */
export const assumptions = { hoursPerDay: 8, daysPerWeek: 5, weeksPerYear: 52, hoursPerYear: 2080 } as const
export const MAX_HOURLY_WAGE = 1_000_000_000
export const MAX_ANNUAL_SALARY = MAX_HOURLY_WAGE * assumptions.hoursPerYear

export const FIELDS = {
  hourlyWage: {
    max: MAX_HOURLY_WAGE,
    example: 25,
    title: "From an hourly wage",
    description: "Hourly wage; give this or annualSalary, not both"
  },
  annualSalary: {
    max: MAX_ANNUAL_SALARY,
    example: 50000,
    title: "From an annual salary",
    description: "Annual salary; give this or hourlyWage, not both"
  }
} as const
export type Field = keyof typeof FIELDS

/** The grammar of a JSON number. */
export const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** The exact decimal a JSON number's text writes; `JSON.parse`'s reviver hands it over as `context.source`. */
export const decimalOf = (text: string): Option.Option<BigDecimal.BigDecimal> =>
  JSON_NUMBER.test(text) ? BigDecimal.fromString(text) : Option.none()

const fromValue = (value: unknown): Result.Result<BigDecimal.BigDecimal, string> => {
  if (BigDecimal.isBigDecimal(value)) return Result.succeed(value)
  if (typeof value !== "number") return Result.fail("must be a JSON number")
  if (!Number.isFinite(value)) return Result.fail("must be a finite number")
  // a number from code (the command line, a test) is the decimal it prints as
  return Result.succeed(BigDecimal.fromNumberUnsafe(value))
}

// An amount's exact value, or what is wrong with it. Finite and positive are judged on the float a JSON parser reads
// (`1e-400` is 0 there), the bound on the decimal as written (`1000000000.00000001` is over it).
export const amountOf = (value: unknown, max: number): Result.Result<BigDecimal.BigDecimal, string> =>
  Result.flatMap(fromValue(value), (amount) => {
    const withinBound = BigDecimal.isLessThanOrEqualTo(amount, BigDecimal.fromBigInt(BigInt(max)))
    // A positive decimal within the bound and with at most 323 decimals reads as a finite float above 0, so the
    // float (parsed from BigDecimal's text of it: 2-4 % of a wage request's CPU) is read only for the others.
    if (withinBound && BigDecimal.isPositive(amount) && amount.scale <= 323) return Result.succeed(amount)
    const read = BigDecimal.toNumberUnsafe(amount)
    if (!Number.isFinite(read)) return Result.fail("must be a finite number")
    if (read <= 0) return Result.fail("must be greater than 0")
    return withinBound ? Result.succeed(amount) : Result.fail(`must be at most ${max}`)
  })
