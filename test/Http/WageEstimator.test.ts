import { afterAll, describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { errorOf, json, makeTestApp, WAGE_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 10_000 })
afterAll(() => app.dispose())

describe("POST /v1/tools/wage-estimator", () => {
  test("the contract's example, exactly", async () => {
    const response = await app.post(WAGE_PATH, { annualSalary: 50000 })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      success: true,
      estimates: { hourly: 24.04, daily: 192.31, weekly: 961.54, biweekly: 1923.08, monthly: 4166.67, annual: 50000 },
      assumptions: { hoursPerDay: 8, daysPerWeek: 5, weeksPerYear: 52, hoursPerYear: 2080 }
    })
  })

  test("from an hourly wage", async () => {
    const body = await json(await app.post(WAGE_PATH, { hourlyWage: 25 }))
    expect(body.estimates).toEqual({
      hourly: 25,
      daily: 200,
      weekly: 1000,
      biweekly: 2000,
      monthly: 4333.33,
      annual: 52000
    })
  })

  test("rounds half away from zero on the decimal value", async () => {
    // 0.125625 x 8 = 1.005 exactly: 1.01, where float arithmetic rounds to 1.00
    const body = await json(await app.post(WAGE_PATH, { hourlyWage: 0.125625 }))
    expect(body.estimates.daily).toBe(1.01)
    expect(body.estimates.hourly).toBe(0.13)
  })

  test("a field the endpoint does not define is refused, named, with the fields it takes", async () => {
    // a silently ignored hoursPerDay would answer with 8 hours a day, which the caller did not ask for
    const error = await errorOf(await app.post(WAGE_PATH, { hourlyWage: 25, hoursPerDay: 6 }), 400, "invalid_request")
    expect(error.details?.[0]?.path).toBe("hoursPerDay")
    expect(error.message).toContain("hourlyWage")
    expect(error.message).toContain("annualSalary")
    const first = await errorOf(
      await app.post(WAGE_PATH, { hourlyWage: 10, currency: "EUR", extra: 1 }),
      400,
      "invalid_request"
    )
    expect(first.details?.[0]?.path).toBe("currency")
  })

  test("the upper bounds are inclusive", async () => {
    expect((await app.post(WAGE_PATH, { hourlyWage: 1_000_000_000 })).status).toBe(200)
    expect((await app.post(WAGE_PATH, { annualSalary: 2_080_000_000_000 })).status).toBe(200)
  })

  const rows: Array<[string, unknown, number, string, string | undefined]> = [
    ["neither given", {}, 400, "invalid_request", undefined],
    ["neither given, other fields only", { salary: 5 }, 400, "invalid_request", undefined],
    ["both given", { hourlyWage: 10, annualSalary: 20800 }, 400, "invalid_request", undefined],
    ["both given, one null", { hourlyWage: 10, annualSalary: null }, 400, "invalid_request", undefined],
    ["both given, both bad", { hourlyWage: "x", annualSalary: -1 }, 400, "invalid_request", undefined],
    ["a string number", { hourlyWage: "25" }, 422, "invalid_value", "hourlyWage"],
    ["null", { annualSalary: null }, 422, "invalid_value", "annualSalary"],
    ["a boolean", { hourlyWage: true }, 422, "invalid_value", "hourlyWage"],
    ["an object", { annualSalary: { amount: 5 } }, 422, "invalid_value", "annualSalary"],
    ["an array", { hourlyWage: [25] }, 422, "invalid_value", "hourlyWage"],
    ["zero", { hourlyWage: 0 }, 422, "invalid_value", "hourlyWage"],
    ["negative zero", { hourlyWage: -0 }, 422, "invalid_value", "hourlyWage"],
    ["negative", { annualSalary: -50000 }, 422, "invalid_value", "annualSalary"],
    ["hourly over the bound", { hourlyWage: 1_000_000_000.01 }, 422, "invalid_value", "hourlyWage"],
    ["annual over the bound", { annualSalary: 2_080_000_000_001 }, 422, "invalid_value", "annualSalary"]
  ]
  for (const [name, body, status, code, path] of rows) {
    test(`${name}: ${status} ${code}`, async () => {
      const error = await errorOf(await app.post(WAGE_PATH, body), status, code)
      if (path === undefined) return
      expect(error.details?.[0]?.path).toBe(path)
      expect(error.message).toStartWith(path)
    })
  }

  test("1e400 (not finite once parsed) is 422, not 500", async () => {
    const response = await app.post(WAGE_PATH, '{"hourlyWage": 1e400}', { raw: true })
    await errorOf(response, 422, "invalid_value")
  })

  test("neither or both fields: the 400 says which to give, with no field named", async () => {
    const neither = await errorOf(await app.post(WAGE_PATH, {}), 400, "invalid_request")
    expect(neither).toEqual({ code: "invalid_request", message: "Give hourlyWage or annualSalary" })
    const both = await errorOf(
      await app.post(WAGE_PATH, { hourlyWage: "x", annualSalary: null }),
      400,
      "invalid_request"
    )
    expect(both).toEqual({ code: "invalid_request", message: "Give only one of hourlyWage and annualSalary, not both" })
  })

  test("rounds the decimal as written, not the float it reads as", async () => {
    // JSON.parse reads 1.00499999999999999999 as the float 1.005, which would round to 1.01
    const body = await json(await app.post(WAGE_PATH, '{"hourlyWage":1.00499999999999999999}', { raw: true }))
    expect(body.estimates.hourly).toBe(1)
    expect(body.estimates.daily).toBe(8.04) // 8.03999999999999999992
    expect((await json(await app.post(WAGE_PATH, '{"hourlyWage":1.005}', { raw: true }))).estimates.hourly).toBe(1.01)
  })

  test("a salary of more digits than a 100-digit division keeps is still rounded on its exact hourly rate", async () => {
    // 10.4 - 2.08e-106, so the hourly rate is 0.005 - 1e-109: below half a cent, where Effect's BigDecimal.divide,
    // which stops at 100 digits and rounds, gives 0.005 and then 0.01
    const salary = `10.${"9".repeat(105).replace(/^9/, "3")}792`
    const body = await json(await app.post(WAGE_PATH, `{"annualSalary":${salary}}`, { raw: true }))
    expect(body.estimates.hourly).toBe(0)
    expect(body.estimates.annual).toBe(10.4)
  })

  test("the bounds hold for the decimal as written", async () => {
    // both read as exactly the bound as a float
    const over = await errorOf(
      await app.post(WAGE_PATH, '{"hourlyWage":1000000000.00000001}', { raw: true }),
      422,
      "invalid_value"
    )
    expect(over.details).toEqual([{ path: "hourlyWage", message: "must be at most 1000000000" }])
    await errorOf(
      await app.post(WAGE_PATH, '{"annualSalary":2080000000000.0000000001}', { raw: true }),
      422,
      "invalid_value"
    )
    const at = await app.post(WAGE_PATH, '{"hourlyWage":1000000000.000000000}', { raw: true })
    expect(at.status).toBe(200)
    expect((await json(at)).estimates.hourly).toBe(1_000_000_000)
  })

  test("exponent forms are the decimal they write", async () => {
    for (const text of ["2.5e1", "2.5E+1", "250e-1", "25.000"]) {
      const body = await json(await app.post(WAGE_PATH, `{"hourlyWage":${text}}`, { raw: true }))
      expect(body.estimates).toEqual({
        hourly: 25,
        daily: 200,
        weekly: 1000,
        biweekly: 2000,
        monthly: 4333.33,
        annual: 52000
      })
    }
  })

  test("1e-400, positive as a decimal but 0 as the float every JSON parser reads: 422, as 0 is", async () => {
    const error = await errorOf(await app.post(WAGE_PATH, '{"hourlyWage":1e-400}', { raw: true }), 422, "invalid_value")
    expect(error.details).toEqual([{ path: "hourlyWage", message: "must be greater than 0" }])
    // 3e-324 reads as the smallest positive float: allowed, all zeros
    const tiny = await json(await app.post(WAGE_PATH, '{"hourlyWage":3e-324}', { raw: true }))
    expect(tiny.estimates.annual).toBe(0)
  })

  test("property: near a half cent, with up to 30 more digits, the answer is the decimal's rounding", async () => {
    // hourly = c.c5 + 1e-(3 + extra) x nudge: above the half cent rounds up, at it rounds up, below it rounds down
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom(-1, 0, 1),
        async (cents, extra, nudge) => {
          const tie = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}5`
          const text =
            nudge === 0
              ? `${tie}${"0".repeat(extra)}`
              : nudge === 1
                ? `${tie}${"0".repeat(extra - 1)}1`
                : `${tie.slice(0, -1)}4${"9".repeat(extra)}`
          const response = await app.post(WAGE_PATH, `{"hourlyWage":${text}}`, { raw: true })
          const rounded = cents + (nudge >= 0 ? 1 : 0)
          expect((await json(response)).estimates.hourly).toBe(rounded / 100)
        }
      ),
      { numRuns: 150 }
    )
  })

  test("the body must be a JSON object", async () => {
    for (const raw of ["[]", "null", "42", '"text"', "{", "", '{"hourlyWage":}']) {
      await errorOf(await app.post(WAGE_PATH, raw, { raw: true }), 400, "invalid_request")
    }
  })
})
