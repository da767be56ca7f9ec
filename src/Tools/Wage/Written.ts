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

const NUMBER_AFTER_KEY = /\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*[,}]/y

/**
 * `writtenIn` without a second parse, for a body known to hold `field` at the top: in a text without an escape
 * where the key's text occurs once, that occurrence is the top-level key, and a number after it is its text.
 */
const writtenOnce = (body: string, field: Field): string | undefined => {
  if (body.includes("\\")) return undefined
  const key = `"${field}"`
  const at = body.indexOf(key)
  if (at === -1 || body.includes(key, at + key.length)) return undefined
  NUMBER_AFTER_KEY.lastIndex = at + key.length
  return NUMBER_AFTER_KEY.exec(body)?.[1]
}

/** The service's input for a decoded request: the given field's amount as written in `body`. */
export const inputOf = (payload: WageRequest, body: string): WageInput => {
  const field: Field = payload.hourlyWage !== undefined ? "hourlyWage" : "annualSalary"
  const written = writtenOnce(body, field) ?? writtenIn(body, field) ?? JSON.stringify(payload[field])
  return field === "hourlyWage" ? { hourlyWage: written } : { annualSalary: written }
}
