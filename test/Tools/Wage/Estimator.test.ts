/**
 * Wage estimator domain: the request schema (which field is given), the value rules (what amounts are allowed, judged
 * on the amount as written) and the maths (six estimates, each rounded to cents half away from zero on the exact
 * decimal value the client sent).
 *
 * The reference used below is written independently of src/Tools/Wage/Amount.ts and Estimator.ts: it reads the
 * decimal digits through Number#toExponential (not String and a regex), rounds with a quotient and remainder (not the
 * +1/2 trick), and turns cents back into a number by parsing a decimal string (not by dividing by 100). The period
 * factors are literals from the contract, not the module's constants.
 */
import { describe, expect, test } from "bun:test"
import { BigDecimal, Option, Result, Schema } from "effect"
import * as fc from "fast-check"
import { PAYLOAD_PARSE_OPTIONS } from "../../../src/Api.ts"
import { InvalidValue } from "../../../src/Errors.ts"
import { fromPayloadIssue } from "../../../src/Http/SchemaErrors.ts"
import { decimalOf as writtenDecimal, MAX_ANNUAL_SALARY, MAX_HOURLY_WAGE } from "../../../src/Tools/Wage/Amount.ts"
import { estimate as estimateOf } from "../../../src/Tools/Wage/Estimator.ts"
import { assumptions, type Estimates, WageBody, WageRequest } from "../../../src/Tools/Wage/Schemas.ts"

// ---------------------------------------------------------------------------------------------------------------
// Independent exact reference
// ---------------------------------------------------------------------------------------------------------------

/** The decimal a JavaScript number prints as, as digits x 10^exponent, read through toExponential. */
const decimalOf = (x: number): { digits: bigint; exponent: number } => {
  const [mantissa = "", exp = "0"] = x.toExponential().split("e")
  const [whole = "", fraction = ""] = mantissa.split(".")
  return { digits: BigInt(whole + fraction), exponent: Number(exp) - fraction.length }
}

/** An exact positive rational p/q. */
type Q = readonly [bigint, bigint]

const exact = (x: number): Q => {
  const { digits, exponent } = decimalOf(x)
  return exponent >= 0 ? [digits * 10n ** BigInt(exponent), 1n] : [digits, 10n ** BigInt(-exponent)]
}

const mul = ([p, q]: Q, [r, s]: Q): Q => [p * r, q * s]

/** Cents of a non-negative rational, rounded half away from zero (= half up here). */
const centsOf = ([p, q]: Q): bigint => {
  const quotient = (100n * p) / q
  const remainder = (100n * p) % q
  return 2n * remainder >= q ? quotient + 1n : quotient
}

/** A whole number of cents as the JSON number a client would read, e.g. 1005n -> 10.05. */
const centsToNumber = (c: bigint): number => Number.parseFloat(`${c / 100n}.${(c % 100n).toString().padStart(2, "0")}`)

/** Hours in each period, per the contract: 8 a day, 40 a week, 80 a fortnight, 2080/12 a month, 2080 a year. */
const periods: ReadonlyArray<readonly [keyof Estimates, Q]> = [
  ["hourly", [1n, 1n]],
  ["daily", [8n, 1n]],
  ["weekly", [40n, 1n]],
  ["biweekly", [80n, 1n]],
  ["monthly", [2080n, 12n]],
  ["annual", [2080n, 1n]]
]

const exactHourly = (request: { hourlyWage: number } | { annualSalary: number }): Q =>
  "hourlyWage" in request ? exact(request.hourlyWage) : mul(exact(request.annualSalary), [1n, 2080n])

const referenceCents = (
  request: { hourlyWage: number } | { annualSalary: number }
): Record<keyof Estimates, bigint> => {
  const hourly = exactHourly(request)
  return Object.fromEntries(periods.map(([name, hours]) => [name, centsOf(mul(hourly, hours))])) as Record<
    keyof Estimates,
    bigint
  >
}

const reference = (request: { hourlyWage: number } | { annualSalary: number }): Estimates => {
  const cents = referenceCents(request)
  return Object.fromEntries(periods.map(([name]) => [name, centsToNumber(cents[name])])) as unknown as Estimates
}

/** The next double above x (x positive and finite). */
const nextUp = (x: number): number => {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  view.setBigUint64(0, view.getBigUint64(0) + 1n)
  return view.getFloat64(0)
}

const ORDER: ReadonlyArray<keyof Estimates> = ["hourly", "daily", "weekly", "biweekly", "monthly", "annual"]

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

/** The payload as the server decodes it (the HTTP API reports the input, so the 400 can say which field to give). */
const decode = Schema.decodeUnknownResult(WageRequest, PAYLOAD_PARSE_OPTIONS)
/** The body's text as the server decodes it: one parse, every number the decimal written. */
const decodeBody = Schema.decodeUnknownResult(WageBody, PAYLOAD_PARSE_OPTIONS)

/** An amount as a test writes it: a string is its JSON text in the body, a number the decimal it prints as. */
type Written = { readonly hourlyWage: string | number } | { readonly annualSalary: string | number }

/** Decoded from a body that holds it; a number JSON cannot write (NaN, Infinity) given to the schema as code could. */
const decodeWritten = (input: Written) => {
  const [field, amount] =
    "hourlyWage" in input ? ["hourlyWage", input.hourlyWage] : ["annualSalary", input.annualSalary]
  if (typeof amount === "number" && !Number.isFinite(amount)) return decode(input)
  return decodeBody(`{"${field}":${typeof amount === "number" ? JSON.stringify(amount) : amount}}`)
}

/** A request as it decodes: each number the exact decimal it prints as. */
const asDecimals = (input: Record<string, number>): WageRequest =>
  Schema.decodeUnknownSync(WageRequest)(
    Object.fromEntries(Object.entries(input).map(([field, n]) => [field, BigDecimal.fromNumberUnsafe(n)]))
  )

const decoded = (input: unknown): WageRequest => {
  const result = decode(input)
  if (Result.isFailure(result)) {
    throw new Error(`expected ${JSON.stringify(input)} to decode, got ${String(result.failure)}`)
  }
  return result.success
}

/** The 400 a payload of the wrong shape gets: its message and details, as the HTTP API answers them. */
const refusal = (input: unknown): { message: string; details: unknown } => {
  const result = decode(input)
  if (Result.isSuccess(result)) {
    throw new Error(`expected ${String(input)} to fail, got ${JSON.stringify(result.success)}`)
  }
  const { details, message } = fromPayloadIssue(result.failure.issue)
  return { message, details }
}

/** The six estimates of an allowed amount. */
const estimate = (input: Written): Estimates => estimateOf(Result.getOrThrow(decodeWritten(input)))

/** The 422 of an amount not allowed: its path and message, as the HTTP API answers them. */
const problems = (input: Written): ReadonlyArray<{ path: string; message: string }> => {
  const result = decodeWritten(input)
  if (Result.isSuccess(result)) throw new Error(`expected ${JSON.stringify(input)} to be refused`)
  const error = fromPayloadIssue(result.failure.issue)
  expect(error).toBeInstanceOf(InvalidValue)
  expect(error.message).toBe(`${error.details?.[0]?.path} ${error.details?.[0]?.message}`)
  return error.details ?? []
}

// ---------------------------------------------------------------------------------------------------------------
// Example-based tests
// ---------------------------------------------------------------------------------------------------------------

describe("estimate: the contract's numbers", () => {
  test("annualSalary 50000 gives the contract example", () => {
    expect(estimateOf(decoded({ annualSalary: 50000 }))).toEqual({
      hourly: 24.04,
      daily: 192.31,
      weekly: 961.54,
      biweekly: 1923.08,
      monthly: 4166.67,
      annual: 50000
    })
  })

  test("hourlyWage 25", () => {
    expect(estimateOf(decoded({ hourlyWage: 25 }))).toEqual({
      hourly: 25,
      daily: 200,
      weekly: 1000,
      biweekly: 2000,
      monthly: 4333.33,
      annual: 52000
    })
  })

  test("hourlyWage 15.5 and 7.25 (keeps cents, monthly rounded)", () => {
    expect(estimate({ hourlyWage: 15.5 })).toEqual({
      hourly: 15.5,
      daily: 124,
      weekly: 620,
      biweekly: 1240,
      monthly: 2686.67,
      annual: 32240
    })
    expect(estimate({ hourlyWage: 7.25 })).toEqual({
      hourly: 7.25,
      daily: 58,
      weekly: 290,
      biweekly: 580,
      monthly: 1256.67,
      annual: 15080
    })
  })

  test("an hourly rate given with more than two decimals is rounded only in the output, never before multiplying", () => {
    // 10.004 would round to 10.00 first; 10.004 * 2080 = 20808.32 exactly
    expect(estimate({ hourlyWage: 10.004 })).toEqual({
      hourly: 10,
      daily: 80.03,
      weekly: 400.16,
      biweekly: 800.32,
      monthly: 1734.03,
      annual: 20808.32
    })
  })

  test("the assumptions are the contract's", () => {
    expect(assumptions).toEqual({ hoursPerDay: 8, daysPerWeek: 5, weeksPerYear: 52, hoursPerYear: 2080 })
    const { hoursPerDay, daysPerWeek, weeksPerYear, hoursPerYear } = assumptions
    expect<number>(hoursPerYear).toBe(hoursPerDay * daysPerWeek * weeksPerYear)
    expect(MAX_HOURLY_WAGE).toBe(1_000_000_000)
    expect(MAX_ANNUAL_SALARY).toBe(2_080_000_000_000)
  })
})

describe("estimate: rounding half away from zero on the decimal value", () => {
  /** Two naive float estimators; every case below must catch at least one of them a cent off. */
  const naive = (input: { hourlyWage: number } | { annualSalary: number }, round: (x: number) => number) => {
    const hourly = "hourlyWage" in input ? input.hourlyWage : input.annualSalary / 2080
    const annual = "annualSalary" in input ? input.annualSalary : hourly * 2080
    const values = [hourly, hourly * 8, hourly * 40, hourly * 80, annual / 12, annual]
    return Object.fromEntries(ORDER.map((name, i) => [name, round(values[i]!)]))
  }
  const byMathRound = (x: number) => Math.round(x * 100) / 100
  const byToFixed = (x: number) => Number(x.toFixed(2))

  // Expected values worked out by hand on the decimal.
  const cases: ReadonlyArray<{ input: { hourlyWage: number } | { annualSalary: number }; expected: Estimates }> = [
    // 0.125625 x 8 = 1.005, x 40 = 5.025, x 80 = 10.05, x 2080 = 261.3, / 12 = 21.775
    {
      input: { hourlyWage: 0.125625 },
      expected: { hourly: 0.13, daily: 1.01, weekly: 5.03, biweekly: 10.05, monthly: 21.78, annual: 261.3 }
    },
    // 2.675 -> 2.68; x 2080 = 5564, / 12 = 463.666..
    {
      input: { hourlyWage: 2.675 },
      expected: { hourly: 2.68, daily: 21.4, weekly: 107, biweekly: 214, monthly: 463.67, annual: 5564 }
    },
    // 5564 / 2080 = 2.675 exactly
    {
      input: { annualSalary: 5564 },
      expected: { hourly: 2.68, daily: 21.4, weekly: 107, biweekly: 214, monthly: 463.67, annual: 5564 }
    },
    // 1.005 -> 1.01
    {
      input: { hourlyWage: 1.005 },
      expected: { hourly: 1.01, daily: 8.04, weekly: 40.2, biweekly: 80.4, monthly: 174.2, annual: 2090.4 }
    },
    // 50471.2 / 2080 = 24.265 exactly; / 12 = 4205.9333..
    {
      input: { annualSalary: 50471.2 },
      expected: { hourly: 24.27, daily: 194.12, weekly: 970.6, biweekly: 1941.2, monthly: 4205.93, annual: 50471.2 }
    },
    // 50000.7 / 12 = 4166.725 exactly; / 2080 = 24.03875..
    {
      input: { annualSalary: 50000.7 },
      expected: { hourly: 24.04, daily: 192.31, weekly: 961.55, biweekly: 1923.1, monthly: 4166.73, annual: 50000.7 }
    },
    // 14.7 / 12 = 1.225 exactly; / 2080 x 80 = 0.5653..
    {
      input: { annualSalary: 14.7 },
      expected: { hourly: 0.01, daily: 0.06, weekly: 0.28, biweekly: 0.57, monthly: 1.23, annual: 14.7 }
    }
  ]

  for (const { expected, input } of cases) {
    test(`${JSON.stringify(input)}`, () => {
      // the case is a real trap: a float computation gets at least one estimate wrong
      const trapped = [byMathRound, byToFixed].some((round) => !Bun.deepEquals(naive(input, round), expected))
      expect(trapped).toBe(true)
      expect(reference(input)).toEqual(expected)
      expect(estimateOf(decoded(input))).toEqual(expected)
    })
  }

  test("a value just below a half cent rounds down", () => {
    // 0.1256249 * 8 = 1.0049992
    expect(estimate({ hourlyWage: 0.1256249 }).daily).toBe(1)
    expect(estimate({ hourlyWage: 0.0049999 }).hourly).toBe(0)
    expect(estimate({ hourlyWage: 0.005 }).hourly).toBe(0.01)
  })
})

describe("estimate: extreme values", () => {
  test("the smallest positive number gives all zeros, without throwing", () => {
    expect(estimateOf(decoded({ hourlyWage: 5e-324 }))).toEqual({
      hourly: 0,
      daily: 0,
      weekly: 0,
      biweekly: 0,
      monthly: 0,
      annual: 0
    })
    expect(estimateOf(decoded({ annualSalary: 5e-324 }))).toEqual({
      hourly: 0,
      daily: 0,
      weekly: 0,
      biweekly: 0,
      monthly: 0,
      annual: 0
    })
  })

  test("a value printed in exponent form (1e-7 and smaller) is read exactly", () => {
    // 0.0000025 x 2080 = 0.0052 -> 0.01
    expect(estimate({ hourlyWage: 2.5e-6 }).annual).toBe(0.01)
    expect(estimate({ hourlyWage: 2.4e-6 }).annual).toBe(0) // 0.004992
    expect(estimate({ annualSalary: 6e-3 }).annual).toBe(0.01)
  })

  test("the largest hourly wage", () => {
    expect(estimateOf(decoded({ hourlyWage: 1e9 }))).toEqual({
      hourly: 1e9,
      daily: 8e9,
      weekly: 4e10,
      biweekly: 8e10,
      monthly: 173333333333.33,
      annual: 2.08e12
    })
  })

  test("the largest annual salary", () => {
    expect(estimateOf(decoded({ annualSalary: 2.08e12 }))).toEqual({
      hourly: 1e9,
      daily: 8e9,
      weekly: 4e10,
      biweekly: 8e10,
      monthly: 173333333333.33,
      annual: 2.08e12
    })
  })

  test("the double just below the largest hourly wage, with all 17 digits used", () => {
    const h = 999999999.9999999 // prints as 999999999.9999999
    expect(estimate({ hourlyWage: h })).toEqual(reference({ hourlyWage: h }))
    expect(estimate({ hourlyWage: h }).annual).toBe(2.08e12) // 2079999999999.99979... -> 2080000000000.00
  })
})

describe("decimalOf: the exact value of a JSON number as written", () => {
  const exactly = (text: string) => Option.map(writtenDecimal(text), BigDecimal.normalize)
  const of = (value: bigint, scale: number) => Option.some(BigDecimal.normalize(BigDecimal.make(value, scale)))

  test("plain decimals", () => {
    expect(exactly("25")).toEqual(of(25n, 0))
    expect(exactly("0.125625")).toEqual(of(125625n, 6))
    expect(exactly("2.675")).toEqual(of(2675n, 3))
    expect(exactly("1.00499999999999999999")).toEqual(of(100499999999999999999n, 20))
  })

  test("negative exponent form: 1e-7, 1.25e-7, 5e-324", () => {
    expect(exactly("1e-7")).toEqual(of(1n, 7))
    expect(exactly("1.25e-7")).toEqual(of(125n, 9))
    expect(exactly("5e-324")).toEqual(of(5n, 324))
  })

  test("positive exponent form: 1.5e+21, 1E21, 2.5e1", () => {
    expect(exactly("1.5e+21")).toEqual(of(15n, -20))
    expect(exactly("1E21")).toEqual(of(1n, -21))
    expect(exactly("2.5e1")).toEqual(of(25n, 0))
  })

  test("text that is not a JSON number has none", () => {
    for (const text of ["NaN", "Infinity", "", "1.", ".5", "01", "+1", "0x10", " 1", "1e99999999999999999999"]) {
      expect(writtenDecimal(text)).toEqual(Option.none())
    }
  })
})

describe("WageRequest: which field is given", () => {
  test("neither field: a 400 at the root, naming both fields", () => {
    const neither = { message: "Give hourlyWage or annualSalary", details: undefined }
    expect(refusal({})).toEqual(neither)
    // a misspelt field is named before the missing one
    expect(refusal({ hourly: 25, salary: 50000 }).message).toStartWith("hourly is not a field of this endpoint")
  })

  test("both fields: a 400 at the root, also when one of them is null or invalid", () => {
    const both = { message: "Give only one of hourlyWage and annualSalary, not both", details: undefined }
    expect(refusal({ hourlyWage: 25, annualSalary: 50000 })).toEqual(both)
    expect(refusal({ hourlyWage: 25, annualSalary: null })).toEqual(both)
    expect(refusal({ hourlyWage: null, annualSalary: 50000 })).toEqual(both)
    expect(refusal({ hourlyWage: "x", annualSalary: "y" })).toEqual(both)
  })

  test("a field the endpoint does not take is refused by name, with the fields it takes", () => {
    const takes = "it takes hourlyWage, annualSalary"
    expect(refusal({ hourlyWage: 25, currency: "EUR" })).toEqual({
      message: `currency is not a field of this endpoint; ${takes}`,
      details: [{ path: "currency", message: `is not a field of this endpoint (${takes})` }]
    })
    expect(refusal({ annualSalary: 50000, extra: null }).message).toStartWith("extra is not a field")
  })

  test("a body that is not an object is refused at the root", () => {
    for (const input of [null, "x", 25, []]) expect(refusal(input).details).toBeUndefined()
  })

  test("the given field's value is the schema's to judge: any value but an allowed number is that field's 422", () => {
    for (const value of ["25", null, true, {}, [25], -1, 0, Number.POSITIVE_INFINITY, 3e12]) {
      for (const field of ["hourlyWage", "annualSalary"]) {
        const result = decode({ [field]: value })
        if (Result.isSuccess(result)) throw new Error(`expected ${String(value)} to be refused`)
        const error = fromPayloadIssue(result.failure.issue)
        expect(error).toBeInstanceOf(InvalidValue)
        expect(error.details?.[0]?.path).toBe(field)
      }
    }
  })

  test("a typed client's payload is checked before it is sent, by the service's rules", () => {
    const encode = Schema.encodeUnknownResult(WageRequest)
    const amount = BigDecimal.fromStringUnsafe
    expect(Result.isSuccess(encode({ hourlyWage: amount("25") }))).toBe(true)
    for (const payload of [{ hourlyWage: amount("-1") }, { hourlyWage: amount("1000000000.01") }, {}]) {
      expect(Result.isFailure(encode(payload))).toBe(true)
    }
  })
})

describe("the value: judged by the service on the amount as written", () => {
  for (const field of ["hourlyWage", "annualSalary"] as const) {
    const as = (amount: string | number) => ({ [field]: amount }) as Written

    test(`${field}: not a JSON number`, () => {
      for (const value of ["25", "", null, true, false, {}, { value: 25 }, [25]]) {
        expect(problems(as(JSON.stringify(value)))).toEqual([{ path: field, message: "must be a JSON number" }])
      }
      // text JSON cannot read never reaches the amount: the body is not JSON, a 400
      for (const text of ["NaN", "Infinity", "0x19", "+25", "25.", ".5", "1e", "025"]) {
        const result = decodeWritten(as(text))
        expect(Result.isFailure(result) && fromPayloadIssue(result.failure.issue).message).toBe(
          "The request body is not valid JSON"
        )
      }
    })

    test(`${field}: not finite once read (1e400), Infinity and NaN`, () => {
      for (const amount of ["1e400", "-1e400", "1" + "0".repeat(400), Number.POSITIVE_INFINITY, Number.NaN]) {
        expect(problems(as(amount))).toEqual([{ path: field, message: "must be a finite number" }])
      }
      expect(problems(as(Number.NEGATIVE_INFINITY))).toEqual([{ path: field, message: "must be a finite number" }])
    })

    test(`${field}: zero and negatives, and a positive decimal a float reads as 0 (1e-400)`, () => {
      for (const amount of [0, -0, -1, -5e-324, -50000, "-0", "0.0", "-0.0", "0e5", "1e-400", "2e-324", "-1"]) {
        expect(problems(as(amount))).toEqual([{ path: field, message: "must be greater than 0" }])
      }
    })

    test(`${field}: the smallest positive float is accepted, as written or as it reads (3e-324 reads as 5e-324)`, () => {
      for (const amount of [5e-324, "5e-324", "3e-324", "4.9406564584124654e-324"]) {
        expect(Result.isSuccess(decodeWritten(as(amount)))).toBe(true)
      }
    })
  }

  test("hourlyWage: 1e9 is accepted, the next double above is not", () => {
    expect(estimate({ hourlyWage: 1e9 }).hourly).toBe(1e9)
    const above = nextUp(1e9)
    expect(above).toBeGreaterThan(1e9)
    expect(problems({ hourlyWage: above })).toEqual([{ path: "hourlyWage", message: "must be at most 1000000000" }])
    expect(problems({ hourlyWage: 1e9 + 1 })).toEqual([{ path: "hourlyWage", message: "must be at most 1000000000" }])
  })

  test("annualSalary: 2.08e12 is accepted, the next double above is not", () => {
    expect(estimate({ annualSalary: 2.08e12 }).annual).toBe(2.08e12)
    const above = nextUp(2.08e12)
    expect(above).toBeGreaterThan(2.08e12)
    expect(problems({ annualSalary: above })).toEqual([
      { path: "annualSalary", message: "must be at most 2080000000000" }
    ])
  })

  test("the bounds are on the decimal as written, not on the float it reads as", () => {
    // each of these reads as exactly the bound as a float
    expect(Number("1000000000.00000001")).toBe(1e9)
    expect(problems({ hourlyWage: "1000000000.00000001" })).toEqual([
      { path: "hourlyWage", message: "must be at most 1000000000" }
    ])
    expect(problems({ hourlyWage: "1.0000000000000000001e9" })[0]?.path).toBe("hourlyWage")
    expect(problems({ annualSalary: "2080000000000.0000000001" })).toEqual([
      { path: "annualSalary", message: "must be at most 2080000000000" }
    ])
    for (const text of ["1000000000.000000000", "1e9", "1E+9", "0.1e10", "1000000000"]) {
      expect(estimate({ hourlyWage: text }).hourly).toBe(1e9)
    }
    expect(estimate({ hourlyWage: "999999999.99999999999999" }).hourly).toBe(1e9)
  })

  test("each field has its own limit", () => {
    expect(Result.isSuccess(decodeWritten({ annualSalary: 1e9 + 1 }))).toBe(true)
    expect(problems({ hourlyWage: 2.08e12 })[0]?.path).toBe("hourlyWage")
  })

  test("rounding is on the decimal as written: 1.00499999999999999999 is 1.00, though it reads as the float 1.005", () => {
    expect(Number("1.00499999999999999999")).toBe(1.005)
    expect(estimate({ hourlyWage: "1.00499999999999999999" }).hourly).toBe(1)
    expect(estimate({ hourlyWage: 1.005 }).hourly).toBe(1.01)
    expect(estimate({ hourlyWage: "1.005" }).hourly).toBe(1.01)
    // 5564.0000000000000000001 / 2080 is just over 2.675: 2.68; 5563.9999999999999999999 just under: 2.67
    expect(estimate({ annualSalary: "5563.9999999999999999999" }).hourly).toBe(2.67)
    expect(estimate({ annualSalary: "5564.0000000000000000001" }).hourly).toBe(2.68)
  })

  test("exponent forms and trailing zeros give the same estimates as the plain decimal", () => {
    const plain = estimate({ hourlyWage: "25" })
    for (const text of ["2.5e1", "2.5E1", "250e-1", "0.25e+2", "25.000", "25e0"]) {
      expect(estimate({ hourlyWage: text })).toEqual(plain)
    }
  })
})

describe("the amount as written in the body", () => {
  const amountIn = (body: string) => {
    const request = Result.getOrThrow(decodeBody(body))
    return BigDecimal.normalize(request.hourlyWage ?? request.annualSalary)
  }
  const decimal = (text: string) => BigDecimal.normalize(BigDecimal.fromStringUnsafe(text))

  test("the given field's number, exactly as sent", () => {
    expect(amountIn('{"hourlyWage": 1.00499999999999999999}')).toEqual(decimal("1.00499999999999999999"))
    expect(amountIn('{"hourlyWage":2.5e1}')).toEqual(decimal("25"))
    expect(amountIn('{"annualSalary":5563.9999999999999999999}')).toEqual(decimal("5563.9999999999999999999"))
  })

  test("anything else there is that field's 422; a repeated key is the last one, as JSON.parse keeps it", () => {
    const refused = (body: string) => {
      const result = decodeBody(body)
      return Result.isFailure(result) ? fromPayloadIssue(result.failure.issue) : undefined
    }
    expect(refused('{"hourlyWage":"25"}')?.message).toBe("hourlyWage must be a JSON number")
    expect(refused('{"annualSalary":null}')?.message).toBe("annualSalary must be a JSON number")
    expect(refused('{"annualSalary":{"amount":5}}')?.message).toBe("annualSalary must be a JSON number")
    expect(refused('{"annualSalary":-0}')?.message).toBe("annualSalary must be greater than 0")
    expect(refused('{"hourlyWage":1e400}')?.message).toBe("hourlyWage must be a finite number")
    expect(refused('{"hourlyWage":1,"hourlyWage":-1}')?.message).toBe("hourlyWage must be greater than 0")
    expect(refused('{"__proto__":{"hourlyWage":5}}')?.message).toStartWith("__proto__ is not a field")
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------------

const hourlyWage = fc.double({ min: 0, minExcluded: true, max: MAX_HOURLY_WAGE, noNaN: true })
const annualSalary = fc.double({ min: 0, minExcluded: true, max: MAX_ANNUAL_SALARY, noNaN: true })
/** Realistic amounts: whole cents, or up to 4 decimals, so the half-cent cases come up often. */
const shortHourly = fc
  .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }))
  .map(([scale, k]) => (k % (MAX_HOURLY_WAGE * 10 ** scale)) / 10 ** scale || 10 ** -scale)
const request = fc.oneof(
  hourlyWage.map((h) => ({ hourlyWage: h })),
  annualSalary.map((a) => ({ annualSalary: a })),
  shortHourly.map((h) => ({ hourlyWage: h })),
  shortHourly.map((h) => ({ annualSalary: Math.round(h * 2080 * 100) / 100 || 0.01 }))
)

const NUM_RUNS = 2000

/**
 * A positive decimal as digits / 10^scale, often within a hair of a half cent (x.xx5 exactly, or with a 1 far below
 * it, added or taken away), where a float's rounding goes wrong.
 */
const decimal = (max: number): fc.Arbitrary<{ digits: bigint; scale: number }> =>
  fc
    .oneof(
      fc.record({ digits: fc.bigInt({ min: 1n, max: 10n ** 60n }), scale: fc.integer({ min: 0, max: 45 }) }),
      fc
        .tuple(
          fc.bigInt({ min: 0n, max: BigInt(max) * 100n - 1n }),
          fc.integer({ min: 0, max: 30 }),
          fc.constantFrom(-1n, 0n, 1n)
        )
        .map(([cents, extra, nudge]) => ({
          digits: (cents * 10n + 5n) * 10n ** BigInt(extra) + nudge,
          scale: 3 + extra
        }))
    )
    .filter(({ digits, scale }) => digits > 0n && digits <= BigInt(max) * 10n ** BigInt(scale))

/** The decimal in three of the ways JSON can write it: plain, with an exponent, with zeros and an upper-case E. */
const writings = ({ digits, scale }: { digits: bigint; scale: number }): ReadonlyArray<string> => {
  const text = digits.toString().padStart(scale + 1, "0")
  const plain = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`
  const significant = digits.toString()
  const fraction = significant.slice(1)
  const exponent = significant.length - 1 - scale
  return [
    plain,
    `${significant[0]}${fraction === "" ? "" : `.${fraction}`}e${exponent}`,
    `${significant[0]}.${fraction}000E${exponent >= 0 ? "+" : ""}${exponent}`
  ]
}

describe("properties of decimals as written", () => {
  test("estimates from any decimal text equal the exact decimal rounded half away from zero, however written", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          decimal(MAX_HOURLY_WAGE).map((value) => ["hourlyWage", value] as const),
          decimal(MAX_ANNUAL_SALARY).map((value) => ["annualSalary", value] as const)
        ),
        ([field, value]) => {
          const exactValue: Q = [value.digits, 10n ** BigInt(value.scale)]
          const hourly = field === "hourlyWage" ? exactValue : mul(exactValue, [1n, 2080n])
          const expected = Object.fromEntries(
            periods.map(([name, hours]) => [name, centsToNumber(centsOf(mul(hourly, hours)))])
          )
          for (const text of writings(value)) {
            expect(estimate({ [field]: text } as Written)).toEqual(expected as unknown as Estimates)
            // and through a body written otherwise, as the handler reads it
            const body = ` { "${field}" : ${text} } `
            expect(estimateOf(Result.getOrThrow(decodeBody(body)))).toEqual(expected as unknown as Estimates)
          }
        }
      ),
      { numRuns: NUM_RUNS }
    )
  })

  test("a decimal over the bound by any amount is refused, however little", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("hourlyWage" as const, "annualSalary" as const),
        fc.integer({ min: 1, max: 40 }),
        (field, zeros) => {
          const max = field === "hourlyWage" ? MAX_HOURLY_WAGE : MAX_ANNUAL_SALARY
          const over = `${max}.${"0".repeat(zeros)}1`
          expect(problems({ [field]: over } as Written)).toEqual([{ path: field, message: `must be at most ${max}` }])
          expect(Result.isSuccess(decodeWritten({ [field]: `${max}.${"0".repeat(zeros)}` } as Written))).toBe(true)
        }
      ),
      { numRuns: 200 }
    )
  })

  test("any JSON number is judged as the rule says: finite and above 0 as a float reads it, the bound as written", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("hourlyWage" as const, "annualSalary" as const),
        fc.boolean(),
        fc.oneof(fc.stringMatching(/^[1-9]$/), fc.stringMatching(/^[1-9][0-9]{0,24}$/)),
        // most near where a float reads 0 (below 10^-323) or Infinity (above 10^308), and near the bounds
        fc.oneof(
          fc.integer({ min: -327, max: -320 }),
          fc.integer({ min: 280, max: 320 }),
          fc.integer({ min: -24, max: 12 }),
          fc.integer({ min: -420, max: 420 })
        ),
        (field, negative, digits, exponent) => {
          const text = `${negative ? "-" : ""}${digits}e${exponent}`
          const max = field === "hourlyWage" ? MAX_HOURLY_WAGE : MAX_ANNUAL_SALARY
          const read = Number(text)
          // the bound on the exact decimal: digits x 10^exponent <= max
          const withinBound =
            negative ||
            (exponent >= 0 ? BigInt(digits) * 10n ** BigInt(exponent) : BigInt(digits)) <=
              (exponent >= 0 ? BigInt(max) : BigInt(max) * 10n ** BigInt(-exponent))
          const expected = !Number.isFinite(read)
            ? "must be a finite number"
            : read <= 0
              ? "must be greater than 0"
              : withinBound
                ? undefined
                : `must be at most ${max}`
          const result = decodeWritten({ [field]: text } as Written)
          if (expected === undefined) expect(Result.isSuccess(result)).toBe(true)
          else expect(problems({ [field]: text } as Written)).toEqual([{ path: field, message: expected }])
        }
      ),
      { numRuns: 2_000 }
    )
  })
})

describe("properties", () => {
  test("every estimate equals the exact product rounded half away from zero (independent reference)", () => {
    fc.assert(
      fc.property(request, (input) => {
        expect(decoded(input)).toEqual(asDecimals(input))
        expect(estimate(input)).toEqual(reference(input))
      }),
      { numRuns: NUM_RUNS }
    )
  })

  test("each estimate is within half a cent of the exact value (checked exactly)", () => {
    fc.assert(
      fc.property(request, (input) => {
        const result = estimate(input)
        const hourly = exactHourly(input)
        for (const [name, hours] of periods) {
          const [p, q] = mul(hourly, hours) // exact value p/q
          const cents = BigInt(Math.round(result[name] * 100))
          // |cents/100 - p/q| <= 1/200  <=>  |2 q cents - 200 p| <= q
          const diff = 2n * q * cents - 200n * p
          expect(diff <= q && -diff <= q).toBe(true)
          // half away from zero: an exact half rounds up, so the error is strictly below half a cent on the low side
          expect(-diff < q).toBe(true)
        }
      }),
      { numRuns: NUM_RUNS }
    )
  })

  test("from an hourly wage h, annual = round(2080 h) and daily = round(8 h)", () => {
    fc.assert(
      fc.property(fc.oneof(hourlyWage, shortHourly), (h) => {
        const [p, q] = exact(h)
        const result = estimate({ hourlyWage: h })
        expect(result.annual).toBe(centsToNumber(centsOf([2080n * p, q])))
        expect(result.daily).toBe(centsToNumber(centsOf([8n * p, q])))
      }),
      { numRuns: NUM_RUNS }
    )
  })

  test("every estimate has at most two decimals and is non-negative", () => {
    fc.assert(
      fc.property(request, (input) => {
        for (const value of Object.values(estimate(input))) {
          expect(value).toBeGreaterThanOrEqual(0)
          expect(String(value)).toMatch(/^\d+(\.\d{1,2})?$/)
        }
      }),
      { numRuns: NUM_RUNS }
    )
  })

  test("hourly <= daily <= weekly <= biweekly <= monthly <= annual", () => {
    fc.assert(
      fc.property(request, (input) => {
        const result = estimate(input)
        for (let i = 1; i < ORDER.length; i++) {
          expect(result[ORDER[i - 1]!]).toBeLessThanOrEqual(result[ORDER[i]!])
        }
      }),
      { numRuns: NUM_RUNS }
    )
  })

  test("and strictly increasing once the hourly rate is at least a cent", () => {
    fc.assert(
      fc.property(
        fc.oneof(hourlyWage, shortHourly).filter((h) => h >= 0.01),
        (h) => {
          const result = estimate({ hourlyWage: h })
          for (let i = 1; i < ORDER.length; i++) {
            expect(result[ORDER[i - 1]!]).toBeLessThan(result[ORDER[i]!])
          }
        }
      ),
      { numRuns: NUM_RUNS }
    )
  })

  test("monotone: a larger input never gives a smaller estimate", () => {
    const pair = (arb: fc.Arbitrary<number>) =>
      fc.tuple(arb, arb).map(([a, b]) => (a <= b ? ([a, b] as const) : ([b, a] as const)))
    const check =
      (key: "hourlyWage" | "annualSalary") =>
      ([low, high]: readonly [number, number]) => {
        const small = estimate({ [key]: low } as Written)
        const large = estimate({ [key]: high } as Written)
        for (const name of ORDER) expect(small[name]).toBeLessThanOrEqual(large[name])
      }
    fc.assert(fc.property(pair(fc.oneof(hourlyWage, shortHourly)), check("hourlyWage")), { numRuns: NUM_RUNS })
    fc.assert(fc.property(pair(annualSalary), check("annualSalary")), { numRuns: NUM_RUNS })
    // neighbours: the next double up, where a float computation most easily goes backwards
    fc.assert(
      fc.property(
        fc.oneof(hourlyWage, shortHourly).filter((h) => h < MAX_HOURLY_WAGE),
        (h) => check("hourlyWage")([h, nextUp(h)])
      ),
      { numRuns: NUM_RUNS }
    )
  })

  test("annualSalary A and hourlyWage A/2080 give the same estimates when A/2080 is a short decimal", () => {
    // h = k / 10^scale with at most 15 significant digits in A = 2080 h, so both print as the exact decimals
    const pairs = fc.integer({ min: 0, max: 4 }).chain((scale) =>
      fc.bigInt({ min: 1n, max: BigInt(Math.min(MAX_HOURLY_WAGE * 10 ** scale, 4e11)) }).map((k) => {
        const asDecimal = (n: bigint) =>
          scale === 0
            ? n.toString()
            : `${n / 10n ** BigInt(scale)}.${(n % 10n ** BigInt(scale)).toString().padStart(scale, "0")}`
        return { h: Number(asDecimal(k)), a: Number(asDecimal(k * 2080n)), k, scale }
      })
    )
    fc.assert(
      fc.property(pairs, ({ a, h, k, scale }) => {
        // the numbers really are those decimals
        expect(exact(h)[0] * 10n ** BigInt(scale)).toBe(k * exact(h)[1])
        expect(exact(a)[0] * 10n ** BigInt(scale)).toBe(2080n * k * exact(a)[1])
        expect(decoded({ annualSalary: a })).toEqual(asDecimals({ annualSalary: a }))
        expect(decoded({ hourlyWage: h })).toEqual(asDecimals({ hourlyWage: h }))
        expect(estimate({ annualSalary: a })).toEqual(estimate({ hourlyWage: h }))
      }),
      { numRuns: NUM_RUNS }
    )
  })

  test("any positive number within the bounds is accepted; anything above is refused on its field", () => {
    fc.assert(
      fc.property(request, (input) => {
        expect(Result.isSuccess(decode(input))).toBe(true)
        expect(Result.isSuccess(decodeWritten(input))).toBe(true)
      }),
      { numRuns: NUM_RUNS }
    )
    fc.assert(
      fc.property(
        fc.constantFrom("hourlyWage" as const, "annualSalary" as const),
        fc.double({ min: 1, max: 1e300, noNaN: true }),
        (field, factor) => {
          const max = field === "hourlyWage" ? MAX_HOURLY_WAGE : MAX_ANNUAL_SALARY
          const value = Math.max(nextUp(max), max * factor)
          const found = problems({ [field]: value } as Written)
          expect(found.map((i) => i.path)).toEqual([field])
        }
      ),
      { numRuns: NUM_RUNS }
    )
  })
})
