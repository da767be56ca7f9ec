/**
 * The amount as written, read without a second parse where the text allows it: the answer is always the one the
 * reviver's parse gives (`sourceText`), whatever else the body holds.
 */
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import type { WageInput } from "../../../src/Tools/Wage/Estimator.ts"
import type { WageRequest } from "../../../src/Tools/Wage/Schemas.ts"
import { inputOf, sourceText } from "../../../src/Tools/Wage/SourceText.ts"

const FIELDS = ["hourlyWage", "annualSalary"] as const

/** What the reviver's parse alone answers for a decoded body. */
const reference = (body: string, field: (typeof FIELDS)[number]): WageInput => {
  const payload = JSON.parse(body) as Record<string, unknown>
  const written = sourceText(body, field) ?? JSON.stringify(payload[field])
  return field === "hourlyWage" ? { hourlyWage: written } : { annualSalary: written }
}

const number = fc.oneof(
  fc.constantFrom("1.005", "1.00499999999999999999", "2.5e1", "25E-1", "-0", "1e400", "1e-400", "0.1", "25"),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String)
)
const noise = fc.oneof(
  fc.constant('"hourlyWage"'),
  fc.constant('"annual\\u0053alary"'),
  fc.constant('{"hourlyWage":1,"annualSalary":2}'),
  fc.constant('["annualSalary",3]'),
  fc.string().map((s) => JSON.stringify(s)),
  number
)

describe("inputOf", () => {
  test("property: the same amount text as the reviver's parse, for any body holding the field at the top", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FIELDS),
        number,
        fc.array(fc.tuple(fc.constantFrom("x", "hourlyWage", "annualSalary", "h\\u006furlyWage"), noise), {
          maxLength: 4
        }),
        fc.boolean(),
        fc.constantFrom("", " ", "\n  "),
        (field, amount, others, last, space) => {
          const members = others.map(([key, value]) => `"${key}"${space}:${space}${value}`)
          const own = `"${field}"${space}:${space}${amount}`
          const body = `{${space}${(last ? [...members, own] : [own, ...members]).join(`,${space}`)}${space}}`
          const payload = JSON.parse(body) as WageRequest
          if (field === "annualSalary" && payload.hourlyWage !== undefined) return
          expect(inputOf(payload, body)).toEqual(reference(body, field))
        }
      ),
      { numRuns: 2000 }
    )
  })

  test("a body that holds the key's text once and no escape is read without the parse: the text, as written", () => {
    expect(inputOf({ hourlyWage: 1.005 }, '{"hourlyWage": 1.00500}')).toEqual({ hourlyWage: "1.00500" })
    expect(inputOf({ annualSalary: 50000 }, '{ "annualSalary" : 5e4 }')).toEqual({ annualSalary: "5e4" })
  })
})
