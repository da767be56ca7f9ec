import { afterAll, describe, expect, test } from "bun:test"
import { Schema } from "effect"
import { UserAgentResponse } from "../../src/Tools/UserAgent/UserAgent.ts"
import { CHROME_WINDOWS, makeTestApp, UA_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 10_000 })
afterAll(() => app.dispose())

/** Status, Content-Type and the exact bytes of an answer. */
const answer = async (body: unknown) => {
  const response = await app.post(UA_PATH, body)
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
}

describe("user-agent answers: the same bytes for the same answer, as the schema encodes it", () => {
  test("a repeated parse answers the same bytes, the schema's encoding of the answer", async () => {
    const first = await answer({ operation: "parse", userAgent: CHROME_WINDOWS })
    const again = await answer({ operation: "parse", userAgent: CHROME_WINDOWS })
    expect(again).toEqual(first)
    expect(first.status).toBe(200)
    expect(first.type).toBe("application/json")
    const decoded = Schema.decodeUnknownSync(UserAgentResponse)(JSON.parse(first.text))
    expect(first.text).toBe(JSON.stringify(Schema.encodeSync(UserAgentResponse)(decoded)))
  })

  test("client hints and generated answers too", async () => {
    const hinted = {
      operation: "parse",
      userAgent: CHROME_WINDOWS,
      headers: { "sec-ch-ua-platform-version": '"15.0.0"' }
    }
    const seeded = { operation: "generate", browser: "Firefox", seed: 7 }
    for (const body of [hinted, seeded]) {
      const first = await answer(body)
      expect(await answer(body)).toEqual(first)
      expect(first.status).toBe(200)
      expect(first.type).toBe("application/json")
      expect(() => Schema.decodeUnknownSync(UserAgentResponse)(JSON.parse(first.text))).not.toThrow()
    }
  })
})
