/**
 * A wage amount as the client wrote it: the JSON text of the body's top-level field, so the decimal `1.005` is
 * judged and rounded as 1.005, not as the 64-bit float `JSON.parse` reads (1.00499999999999999999 is 1.005 there).
 */
import type { Field, WageInput, WageRequest } from "./Wage.ts"

interface ParseContext {
  readonly source?: string
}

/** The JSON text of the body's top-level `field` (the last one when the key repeats, as `JSON.parse` keeps it). */
export const writtenIn = (body: string, field: Field): string | undefined => {
  const written = new Map<unknown, string>()
  try {
    // the reviver's `context.source` (ES2025's JSON.parse source text access) is a number's or a string's text
    const root: unknown = JSON.parse(
      body,
      function (this: unknown, key: string, value: unknown, context?: ParseContext) {
        if (key === field) written.set(this, context?.source ?? JSON.stringify(value))
        return value
      }
    )
    return written.get(root)
  } catch {
    return undefined
  }
}

/** The service's input for a decoded request: the given field's amount as written in `body`. */
export const inputOf = (payload: WageRequest, body: string): WageInput => {
  if (payload.hourlyWage !== undefined) {
    return { hourlyWage: writtenIn(body, "hourlyWage") ?? JSON.stringify(payload.hourlyWage) }
  }
  return { annualSalary: writtenIn(body, "annualSalary") ?? JSON.stringify(payload.annualSalary) }
}
