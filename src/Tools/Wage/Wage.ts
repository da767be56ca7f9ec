/**
 * Wage estimator: request and response schemas, the value rules and the maths. The request schema says which form
 * was sent (one of two fields); the amount's value is judged here from its text as written in the body, and every
 * estimate is computed exactly from that decimal and rounded to cents half away from zero, so 1.005 becomes 1.01,
 * 1.00499999999999999999 stays 1.00, and no binary-float error can move a cent.
 */
import { Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { InvalidValue } from "../../Errors.ts"

export const HOURS_PER_DAY = 8
export const DAYS_PER_WEEK = 5
export const WEEKS_PER_YEAR = 52
export const HOURS_PER_YEAR = HOURS_PER_DAY * DAYS_PER_WEEK * WEEKS_PER_YEAR
export const MAX_HOURLY_WAGE = 1_000_000_000
export const MAX_ANNUAL_SALARY = MAX_HOURLY_WAGE * HOURS_PER_YEAR

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

/**
 * A wage amount as written: the JSON text of the value sent (`"25"`, `"2.5e1"`, `"1.00499999999999999999"`; a value
 * that is not a number keeps its JSON text, `"\"25\""` or `"null"`), or a JavaScript number.
 */
export type Amount = string | number

/** What the wage service takes: one of the two amounts. */
export type WageInput =
  | { readonly hourlyWage: Amount; readonly annualSalary?: never }
  | { readonly annualSalary: Amount; readonly hourlyWage?: never }

/** An exact non-negative rational: numerator over denominator. */
export interface Ratio {
  readonly n: bigint
  readonly d: bigint
}

/** JSON's number grammar (RFC 8259 section 6): sign, whole part, fraction, exponent. */
const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/**
 * The exact value of a non-negative JSON number as written (`"2.5e1"` is 25/1, `"1.005"` is 1005/1000). Its
 * exponent must leave a value a 64-bit float can hold (as `amountOf` has checked), so the powers of ten stay small.
 */
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

/**
 * An amount's exact value, or what is wrong with it (the 422's detail). Positive and finite are judged on the number
 * as a JSON parser reads it, a 64-bit float (so `1e400` is not finite, and `1e-400` and `-0` are not greater than 0);
 * the upper bound on the decimal as written (so `1000000000.00000001` is over it).
 */
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

const times = ({ d, n }: Ratio, numerator: number, denominator = 1): Ratio => ({
  n: n * BigInt(numerator),
  d: d * BigInt(denominator)
})

/** The form given and its amount. */
export const given = (input: WageInput): readonly [Field, Amount] =>
  input.hourlyWage !== undefined ? ["hourlyWage", input.hourlyWage] : ["annualSalary", input.annualSalary]

/** The hourly rate of a request, exactly, or the contract's 422 naming the field. */
export const hourlyRate = (input: WageInput): Result.Result<Ratio, InvalidValue> => {
  const [field, amount] = given(input)
  const value = amountOf(amount, FIELDS[field].max)
  if (Result.isFailure(value)) {
    const problem = value.failure
    return Result.fail(
      new InvalidValue({ message: `${field} ${problem}`, details: [{ path: field, message: problem }] })
    )
  }
  return Result.succeed(field === "hourlyWage" ? value.success : times(value.success, 1, HOURS_PER_YEAR))
}

/**
 * A wage amount in the request. To a typed client it is a number, refused before it is sent when the rules above
 * refuse it; from the wire any JSON value passes here (typed a number, but it may be `"25"` or `null`), so the wage
 * service judges it, from its text in the body (a 422, not a 400): the handler reads only which field is given. The
 * document shows the amount as clients should send it.
 */
const amount = (field: Field) => {
  const { description, example, max } = FIELDS[field]
  const asDocumented = Schema.makeFilter(() => true, {
    toJsonSchema: () => ({ type: "number", exclusiveMinimum: 0, maximum: max })
  })
  return Schema.Any.annotate({ description, examples: [example] })
    .check(asDocumented)
    .pipe(
      Schema.decodeTo(
        Schema.declare((_: unknown): _ is number => true),
        SchemaTransformation.transformEffect<number, any>({
          decode: (value) => Effect.succeed(value as number),
          encode: (value) =>
            Result.match(amountOf(value, max), {
              onFailure: (message) => Effect.fail(new SchemaIssue.InvalidValue({ message }, value)),
              onSuccess: () => Effect.succeed(value)
            })
        })
      )
    )
}

/** Which form was sent: exactly one of the two fields, a key present counting as given even with null. */
export const WageRequest = Schema.Union(
  [
    Schema.Struct({
      hourlyWage: amount("hourlyWage"),
      annualSalary: Schema.optionalKey(Schema.Never)
    }).annotate({ title: FIELDS.hourlyWage.title }),
    Schema.Struct({
      annualSalary: amount("annualSalary"),
      hourlyWage: Schema.optionalKey(Schema.Never)
    }).annotate({ title: FIELDS.annualSalary.title })
  ],
  { mode: "oneOf" }
).annotate({
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

/** Round n/d to cents, half away from zero (all values here are positive), as a number of cents. */
const roundToCents = ({ d, n }: Ratio): number => Number((200n * n + d) / (2n * d)) / 100

/** All six estimates from the unrounded hourly rate, each rounded once; or the 422 for an amount not allowed. */
export const estimate = (input: WageInput): Result.Result<Estimates, InvalidValue> =>
  Result.map(hourlyRate(input), (hourly) => ({
    hourly: roundToCents(hourly),
    daily: roundToCents(times(hourly, HOURS_PER_DAY)),
    weekly: roundToCents(times(hourly, HOURS_PER_DAY * DAYS_PER_WEEK)),
    biweekly: roundToCents(times(hourly, HOURS_PER_DAY * DAYS_PER_WEEK * 2)),
    monthly: roundToCents(times(hourly, HOURS_PER_YEAR, 12)),
    annual: roundToCents(times(hourly, HOURS_PER_YEAR))
  }))
