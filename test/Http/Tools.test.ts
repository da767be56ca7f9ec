import { afterAll, describe, expect, test } from "bun:test"
import { CHROME_WINDOWS, makeTestApp, UA_PATH, WAGE_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 10_000 })
afterAll(() => app.dispose())

/** Status, Content-Type and the exact bytes of an answer. */
const answer = async (path: string, body: unknown) => {
  const response = await app.post(path, body)
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
}

/** The answer's field names in order, nested: the wire shape a client reads, whatever the values. */
const shape = (value: unknown): unknown =>
  typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]))
    : typeof value

const PARSED_CHROME =
  '{"success":true,"data":{"userAgent":"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like ' +
  'Gecko) Chrome/124.0.0.0 Safari/537.36","browser":{"name":"Chrome","version":"124.0.0.0"},"os":{"name":"Windows",' +
  '"version":"10"},"device":{"type":"Desktop","vendor":"Unknown","model":"Unknown","name":"Unknown"},"cpu":{"architecture":"amd64"},' +
  '"engine":{"name":"Blink","version":"124.0.0.0"},"bot":{"isBot":false,"name":"Unknown","category":"Unknown"}}}'

const INFO_SHAPE = {
  userAgent: "string",
  browser: { name: "string", version: "string" },
  os: { name: "string", version: "string" },
  device: { type: "string", vendor: "string", model: "string", name: "string" },
  cpu: { architecture: "string" },
  engine: { name: "string", version: "string" },
  bot: { isBot: "boolean", name: "string", category: "string" }
}

describe("answers on the wire: these exact bytes, the same for the same answer", () => {
  test("a parse, cached or not", async () => {
    const first = await answer(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS })
    expect(first).toEqual({ status: 200, type: "application/json", text: PARSED_CHROME })
    expect(await answer(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS })).toEqual(first)
  })

  test("a wage estimate, in the contract's field order", async () => {
    expect(await answer(WAGE_PATH, { annualSalary: 50000 })).toEqual({
      status: 200,
      type: "application/json",
      text:
        '{"success":true,"estimates":{"hourly":24.04,"daily":192.31,"weekly":961.54,"biweekly":1923.08,' +
        '"monthly":4166.67,"annual":50000},"assumptions":{"hoursPerDay":8,"daysPerWeek":5,"weeksPerYear":52,' +
        '"hoursPerYear":2080}}'
    })
  })

  test("client hints and seeded generation: the same bytes again, every field in place", async () => {
    const hinted = {
      operation: "parse",
      userAgent: CHROME_WINDOWS,
      headers: { "sec-ch-ua-platform": '"Windows"', "sec-ch-ua-platform-version": '"15.0.0"' }
    }
    const seeded = { operation: "generate", browser: "Firefox", seed: 7 }
    for (const body of [hinted, seeded]) {
      const first = await answer(UA_PATH, body)
      expect(await answer(UA_PATH, body)).toEqual(first)
      expect(first.status).toBe(200)
      expect(first.type).toBe("application/json")
      expect(shape(JSON.parse(first.text))).toEqual({ success: "boolean", data: INFO_SHAPE })
    }
  })
})
