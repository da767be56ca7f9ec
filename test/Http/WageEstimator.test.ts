import { afterAll, describe, expect, test } from "bun:test"
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

  test("the body must be a JSON object", async () => {
    for (const raw of ["[]", "null", "42", '"text"', "{", "", '{"hourlyWage":}']) {
      await errorOf(await app.post(WAGE_PATH, raw, { raw: true }), 400, "invalid_request")
    }
  })
})
