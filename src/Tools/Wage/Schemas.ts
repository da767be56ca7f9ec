import { Effect, Result, Schema, SchemaGetter, SchemaIssue, SchemaTransformation } from "effect"
import { amountOf, assumptions, type Field, FIELDS } from "./Amount.ts"

export { assumptions }

// To a typed client a number, refused before it is sent if not allowed; from the wire any value (`Unknown` would
// refuse 1e400), for the estimator to judge from its text: a 422, not a 400.
const amount = (field: Field) => {
  const { description, example, max } = FIELDS[field]
  const documented = Schema.makeFilter(() => true, {
    toJsonSchema: () => ({ type: "number", exclusiveMinimum: 0, maximum: max })
  })
  const checkedWhenSent = new SchemaTransformation.Transformation<number, unknown>(
    SchemaGetter.passthrough({ strict: false }),
    SchemaGetter.transformEffect((value: number) =>
      Result.match(amountOf(value, max), {
        onFailure: (message) => Effect.fail(new SchemaIssue.InvalidValue({ message }, value)),
        onSuccess: () => Effect.succeed(value)
      })
    )
  )
  return Schema.Any.annotate({ description, examples: [example] })
    .check(documented)
    .pipe(
      Schema.decodeTo(
        Schema.declare((_: unknown): _ is number => true),
        checkedWhenSent
      )
    )
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
