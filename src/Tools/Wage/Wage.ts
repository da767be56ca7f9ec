/**
 * Wage estimator: request and response schemas, and the maths. Every estimate is computed exactly, as a rational
 * number from the decimal value the client sent, and rounded to cents half away from zero, so 1.005 becomes 1.01
 * and no binary-float error can move a cent.
 */
import { Schema, SchemaTransformation } from "effect"
import { INVALID_VALUE } from "../../Errors.ts"

export const HOURS_PER_DAY = 8
export const DAYS_PER_WEEK = 5
export const WEEKS_PER_YEAR = 52
export const HOURS_PER_YEAR = HOURS_PER_DAY * DAYS_PER_WEEK * WEEKS_PER_YEAR
export const MAX_HOURLY_WAGE = 1_000_000_000
export const MAX_ANNUAL_SALARY = MAX_HOURLY_WAGE * HOURS_PER_YEAR

/**
 * A wage amount's failures are 422 (a value given but wrong), not 400: the amount check below, and each amount field
 * itself (JSON's 1e400 is Infinity, which the JSON codec refuses), carry the shared mark.
 */
const AMOUNT = INVALID_VALUE

const amountProblem = (value: unknown, max: number): string | undefined => {
  if (typeof value !== "number") return "must be a JSON number"
  if (!Number.isFinite(value)) return "must be a finite number"
  if (value <= 0) return "must be greater than 0"
  return value <= max ? undefined : `must be at most ${max}`
}

const FIELDS = {
  hourlyWage: { max: MAX_HOURLY_WAGE, example: 25, description: "Hourly wage; give this or annualSalary, not both" },
  annualSalary: {
    max: MAX_ANNUAL_SALARY,
    example: 50000,
    description: "Annual salary; give this or hourlyWage, not both"
  }
} as const

/**
 * The request's JSON Schema as clients should see it. Its fields are read as any JSON value (presence is checked
 * before the value), which the generated document would show as `{}`; the OpenAPI document takes these instead.
 */
export const wageRequestJsonSchema = {
  title: "Wage estimate request",
  description: "Exactly one of hourlyWage and annualSalary, a positive JSON number",
  // Each form names the other field `false` (must be absent), so generated types reject {} and both at once.
  oneOf: Object.entries(FIELDS).map(([name, { description, example, max }]) => ({
    type: "object",
    title: name === "hourlyWage" ? "From an hourly wage" : "From an annual salary",
    properties: {
      [name]: { type: "number", exclusiveMinimum: 0, maximum: max, description, examples: [example] },
      ...Object.fromEntries(
        Object.keys(FIELDS)
          .filter((other) => other !== name)
          .map((other) => [other, false])
      )
    },
    required: [name]
  })),
  examples: [{ annualSalary: 50000 }, { hourlyWage: 25 }]
}

const documented = Schema.optionalKey(Schema.Unknown.annotate({ [AMOUNT]: true, message: "must be a finite number" }))

/**
 * First which fields are given (a present key counts, even with null): 400 unless exactly one; then its value: 422
 * unless a positive finite JSON number within bounds. One struct with two checks, in that order.
 */
const Given = Schema.Struct({
  hourlyWage: documented,
  annualSalary: documented
}).check(
  Schema.makeFilter((body) => {
    const given = ("hourlyWage" in body ? 1 : 0) + ("annualSalary" in body ? 1 : 0)
    return (
      given === 1 ||
      (given === 0 ? "Give hourlyWage or annualSalary" : "Give only one of hourlyWage and annualSalary, not both")
    )
  }),
  Schema.makeFilter(
    (body) => {
      for (const field of ["hourlyWage", "annualSalary"] as const) {
        const problem = field in body ? amountProblem(body[field], FIELDS[field].max) : undefined
        if (problem !== undefined) return { path: [field], issue: problem }
      }
      return undefined
    },
    { [AMOUNT]: true }
  )
)

// What the checks leave, typed as one form or the other, so a typed client's payload cannot be {} or both fields.
const Amounts = Schema.Union([
  Schema.Struct({ hourlyWage: Schema.Number, annualSalary: Schema.optionalKey(Schema.Never) }),
  Schema.Struct({ annualSalary: Schema.Number, hourlyWage: Schema.optionalKey(Schema.Never) })
])

export const WageRequest = Given.annotate({ identifier: "WageRequest" })
  .pipe(
    Schema.decodeTo(
      Amounts,
      // The checks above have made each given value a number.
      SchemaTransformation.transform({ decode: (body) => body as typeof Amounts.Type, encode: (body) => body })
    )
  )
  .annotate({
    identifier: "WageRequest",
    title: "Wage estimate request",
    description: "Exactly one of hourlyWage and annualSalary, a positive JSON number",
    examples: [{ annualSalary: 50000 }, { hourlyWage: 25 }]
  })
export type WageRequest = typeof WageRequest.Type

const cents = Schema.Finite.annotate({ description: "Rounded to cents, half away from zero" })

export const Estimates = Schema.Struct({
  hourly: cents,
  daily: cents,
  weekly: cents,
  biweekly: cents,
  monthly: cents,
  annual: cents
}).annotate({ identifier: "Estimates", description: "The same pay over six periods" })
export type Estimates = typeof Estimates.Type

export const Assumptions = Schema.Struct({
  hoursPerDay: Schema.Literal(HOURS_PER_DAY),
  daysPerWeek: Schema.Literal(DAYS_PER_WEEK),
  weeksPerYear: Schema.Literal(WEEKS_PER_YEAR),
  hoursPerYear: Schema.Literal(HOURS_PER_YEAR)
}).annotate({ identifier: "Assumptions" })

export const assumptions: typeof Assumptions.Type = {
  hoursPerDay: HOURS_PER_DAY,
  daysPerWeek: DAYS_PER_WEEK,
  weeksPerYear: WEEKS_PER_YEAR,
  hoursPerYear: HOURS_PER_YEAR
}

export const WageResponse = Schema.Struct({
  success: Schema.Literal(true),
  estimates: Estimates,
  assumptions: Assumptions
}).annotate({
  identifier: "WageResponse",
  examples: [
    {
      success: true,
      estimates: { hourly: 24.04, daily: 192.31, weekly: 961.54, biweekly: 1923.08, monthly: 4166.67, annual: 50000 },
      assumptions
    }
  ]
})

/** An exact non-negative rational: numerator over denominator. */
interface Ratio {
  readonly n: bigint
  readonly d: bigint
}

/** The exact decimal value of a finite non-negative number, as JavaScript prints it (shortest round trip). */
export const toRatio = (x: number): Ratio => {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x))
  if (match === null) throw new RangeError(`not a finite non-negative number: ${x}`)
  const [, whole = "", fraction = "", exponent = "0"] = match
  const scale = fraction.length - Number(exponent)
  const digits = BigInt(whole + fraction)
  return scale >= 0 ? { n: digits, d: 10n ** BigInt(scale) } : { n: digits * 10n ** BigInt(-scale), d: 1n }
}

/** Round n/d to cents, half away from zero (all values here are positive), as a number of cents. */
const roundToCents = ({ d, n }: Ratio): number => Number((200n * n + d) / (2n * d)) / 100

const times = ({ d, n }: Ratio, numerator: number, denominator = 1): Ratio => ({
  n: n * BigInt(numerator),
  d: d * BigInt(denominator)
})

/** All six estimates from the unrounded hourly rate, each rounded once. */
export const estimate = (request: WageRequest): Estimates => {
  const hourly =
    request.hourlyWage !== undefined
      ? toRatio(request.hourlyWage)
      : times(toRatio(request.annualSalary ?? 0), 1, HOURS_PER_YEAR)
  return {
    hourly: roundToCents(hourly),
    daily: roundToCents(times(hourly, HOURS_PER_DAY)),
    weekly: roundToCents(times(hourly, HOURS_PER_DAY * DAYS_PER_WEEK)),
    biweekly: roundToCents(times(hourly, HOURS_PER_DAY * DAYS_PER_WEEK * 2)),
    monthly: roundToCents(times(hourly, HOURS_PER_YEAR, 12)),
    annual: roundToCents(times(hourly, HOURS_PER_YEAR))
  }
}
