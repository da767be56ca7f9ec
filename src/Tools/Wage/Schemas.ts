import { BigDecimal, Effect, Option, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { INVALID_VALUE } from "../../Errors.ts"
import { jsonBody, type Replacer, type Reviver } from "../../JsonBody.ts"
import { amountOf, assumptions, decimalOf, type Field, FIELDS } from "./Amount.ts"

export { assumptions }

// Any JSON value from the wire, so a string or null is this field's 422, not a 400; a number as the exact decimal
// written (the body's reviver), or a number from code. To a typed client and in the document, a JSON number.
const amount = (field: Field) => {
  const { description, example, max } = FIELDS[field]
  const documented = Schema.makeFilter(() => true, {
    toJsonSchema: () => ({ type: "number", exclusiveMinimum: 0, maximum: max })
  })
  // judged both ways: a typed client refuses an amount before sending it, as the server would
  const judge = (value: unknown) =>
    Result.match(amountOf(value, max), {
      onFailure: (message) => Effect.fail(new SchemaIssue.InvalidValue({ message, [INVALID_VALUE]: true }, value)),
      onSuccess: Effect.succeed
    })
  const judged = SchemaTransformation.transformEffect<BigDecimal.BigDecimal, unknown>({ decode: judge, encode: judge })
  return Schema.Unknown.annotate({ description, examples: [example] })
    .check(documented)
    .pipe(Schema.decodeTo(Schema.BigDecimal, judged))
}

/** Exactly one of the two fields; a key present counts as given, even with null. */
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
  description: "Exactly one of hourlyWage and annualSalary, a positive JSON number"
})
export type WageRequest = typeof WageRequest.Type

declare global {
  // ES2025's JSON.rawJSON (Bun has it; TypeScript's lib does not name it yet): a number written as exact text
  interface JSON {
    rawJSON(text: string): unknown
  }
}

// Every number of a wage body is read as the decimal written (`1.005` exactly), and a typed client writes it so.
// (Not the body itself, key "": a body that is a number is refused as not an object.)
const exactNumbers: Reviver = (key, value, context) =>
  key !== "" && typeof value === "number" && context?.source !== undefined
    ? Option.getOrElse(decimalOf(context.source), () => value)
    : value
// (The value as it was, before its toJSON: a BigDecimal's is an object.)
const writtenNumbers: Replacer = function (key, value) {
  const original = this[key]
  return BigDecimal.isBigDecimal(original) ? JSON.rawJSON(BigDecimal.format(original)) : value
}

/** The body: its JSON text parsed once, amounts exact. */
export const WageBody = jsonBody(WageRequest, {
  examples: [{ annualSalary: 50000 }, { hourlyWage: 25 }],
  reviver: exactNumbers,
  replacer: writtenNumbers
})

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
  hoursPerDay: Schema.Literal(assumptions.hoursPerDay),
  daysPerWeek: Schema.Literal(assumptions.daysPerWeek),
  weeksPerYear: Schema.Literal(assumptions.weeksPerYear),
  hoursPerYear: Schema.Literal(assumptions.hoursPerYear)
}).annotate({ identifier: "Assumptions" })

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
