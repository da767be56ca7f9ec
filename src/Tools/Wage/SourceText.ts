/** An amount as the client wrote it, so `1.005` is judged as that decimal, not as the float `JSON.parse` reads. */
import type { Field } from "./Amount.ts"
import type { WageInput } from "./Estimator.ts"
import type { WageRequest } from "./Schemas.ts"

interface ParseContext {
  readonly source?: string
}

/** The JSON text of the body's top-level `field` (the last one when the key repeats, as `JSON.parse` keeps it). */
export const sourceText = (body: string, field: Field): string | undefined => {
  const texts = new Map<unknown, string>()
  try {
    // `context.source`: ES2025's JSON.parse source text access, a number's or a string's text
    const root: unknown = JSON.parse(
      body,
      function (this: unknown, key: string, value: unknown, context?: ParseContext) {
        if (key === field) texts.set(this, context?.source ?? JSON.stringify(value))
        return value
      }
    )
    return texts.get(root)
  } catch {
    return undefined
  }
}

/** The estimator's input for a decoded request: the given field's amount as written in `body`. */
export const inputOf = (payload: WageRequest, body: string): WageInput =>
  payload.hourlyWage !== undefined
    ? { hourlyWage: sourceText(body, "hourlyWage") ?? JSON.stringify(payload.hourlyWage) }
    : { annualSalary: sourceText(body, "annualSalary") ?? JSON.stringify(payload.annualSalary) }
