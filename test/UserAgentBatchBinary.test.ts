/** Issue 30 through the compiled binary (`$TOOLS_API_BINARY`, or built once per test run): one batch, one count. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { binary } from "./support/Binary.ts"
import { type Running, start } from "./support/Process.ts"

setDefaultTimeout(180_000)

const KEY = "binary-batch-key-0123456789"
const UA_PATH = "/v1/tools/user-agent-parser"
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"

let server: Running
beforeAll(async () => {
  server = await start({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: "20" }, await binary())
})
afterAll(async () => {
  await server?.stop()
})

const post = (body: object) =>
  fetch(`${server.base}${UA_PATH}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

describe("the compiled binary", () => {
  test("parses a batch in order and generates a count, one token a user agent; too many for the bucket is a 400", async () => {
    const batch = await post({ operation: "parse", userAgents: [IPHONE, CHROME, IPHONE] })
    expect(batch.status).toBe(200)
    expect(batch.headers.get("x-ratelimit-remaining")).toBe("17")
    const parsed = (await batch.json()) as { data: Array<{ userAgent: string; browser: { name: string } }> }
    expect(parsed.data.map((info) => [info.userAgent, info.browser.name])).toEqual([
      [IPHONE, "Safari"],
      [CHROME, "Chrome"],
      [IPHONE, "Safari"]
    ])

    const count = await post({ operation: "generate", count: 5, browser: "Firefox", seed: 3 })
    expect(count.status).toBe(200)
    expect(count.headers.get("x-ratelimit-remaining")).toBe("12")
    const generated = (await count.json()) as { data: Array<{ browser: { name: string } }> }
    expect(generated.data.map((info) => info.browser.name)).toEqual(Array(5).fill("Firefox"))

    const bad = await post({ operation: "parse", userAgents: [IPHONE, ""] })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { details: Array<{ path: string }> } }).error.details[0]!.path).toBe(
      "userAgents[1]"
    )

    const tooMany = await post({ operation: "generate", count: 21 })
    expect(tooMany.status).toBe(400)
    expect(((await tooMany.json()) as { error: { message: string } }).error.message).toContain("at most 20 at once")
  })
})
