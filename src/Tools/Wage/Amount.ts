/** A wage amount: its bounds, and its exact value from the decimal as written, so no float error moves a cent. */
import { Result } from "effect"

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

/** The JSON text of the value sent (`"2.5e1"`, or `"null"` for a value that is no number), or a number. */
export type Amount = string | number

/** An exact non-negative rational n/d. */
export interface Ratio {
  readonly n: bigint
  readonly d: bigint
}

export const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/** The exact value of a non-negative JSON number; a float's range (checked by `amountOf`) keeps the powers small. */
export const toRatio = (text: string): Ratio => {
  const match = JSON_NUMBER.exec(text)
  const [, sign, whole = "", fraction = "", exponent = "0"] = match ?? []
  const scale = fraction.length - Number(exponent)
  if (match === null || sign === "-" || !(Math.abs(scale) <= text.length + 400)) {
    throw new RangeError(`not a non-negative JSON number of a float's range: ${text}`)
  }
  const digits = BigInt(whole + fraction)
  return scale >= 0 ? { n: digits, d: 10n ** BigInt(scale) } : { n: digits * 10n ** BigInt(-scale), d: 1n }
}

// An amount's exact value, or what is wrong with it. Finite and positive are judged on the float a JSON parser reads
// (`1e-400` is 0 there), the bound on the decimal as written (`1000000000.00000001` is over it).
export const amountOf = (amount: Amount, max: number): Result.Result<Ratio, string> => {
  if (typeof amount === "number" && !Number.isFinite(amount)) return Result.fail("must be a finite number")
  const text = String(amount)
  if (!JSON_NUMBER.test(text)) return Result.fail("must be a JSON number")
  const read = Number(text)
  if (!Number.isFinite(read)) return Result.fail("must be a finite number")
  if (read <= 0) return Result.fail("must be greater than 0")
  const ratio = toRatio(text)
  return ratio.n <= BigInt(max) * ratio.d ? Result.succeed(ratio) : Result.fail(`must be at most ${max}`)
}
