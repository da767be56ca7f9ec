/** An amount as the client wrote it, so `1.005` is judged as that decimal, not as the float `JSON.parse` reads. */
import type { Field } from "./Amount.ts"
import type { WageInput } from "./Estimator.ts"
import type { WageRequest } from "./Schemas.ts"

/** The JSON text of the body's top-level `field` (the last one when the key repeats, as `JSON.parse` keeps it). */
export const sourceText = (body: string, field: Field): string | undefined => {
  const texts = new Map<unknown, string>()
  try {
    // `context.source`: ES2025's JSON.parse source text access, a number's or a string's text
    const root: unknown = JSON.parse(
      body,
      function (this: unknown, key: string, value: unknown, context?: { readonly source?: string }) {
        if (key === field) texts.set(this, context?.source ?? JSON.stringify(value))
        return value
      }
    )
    return texts.get(root)
  } catch {
    return undefined
  }
}

const NUMBER_AFTER_KEY = /\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*[,}]/y

// `sourceText` without a second parse, for a body known to hold `field` at the top: in a text without an escape
// where the key's text occurs once, that occurrence is the top-level key, and a number after it is its text.
const sourceTextOnce = (body: string, field: Field): string | undefined => {
  if (body.includes("\\")) return undefined
  const key = `"${field}"`
  const at = body.indexOf(key)
  if (at === -1 || body.includes(key, at + key.length)) return undefined
  NUMBER_AFTER_KEY.lastIndex = at + key.length
  return NUMBER_AFTER_KEY.exec(body)?.[1]
}

/** The estimator's input for a decoded request: the given field's amount as written in `body`. */
export const inputOf = (payload: WageRequest, body: string): WageInput => {
  const field: Field = payload.hourlyWage !== undefined ? "hourlyWage" : "annualSalary"
  const text = sourceTextOnce(body, field) ?? sourceText(body, field) ?? JSON.stringify(payload[field])
  return field === "hourlyWage" ? { hourlyWage: text } : { annualSalary: text }
}
