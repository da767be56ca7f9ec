/**
 * Keys never leave the process: a real server with LOG_LEVEL=debug is driven through every status it can answer,
 * with valid keys and with wrong keys that look real, and no key's text (nor its full digest) appears in stdout,
 * stderr, any response body or header, or /metrics. The one exception, tested apart: a generated key is printed
 * once, on stderr.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expectWithinContract } from "./support/Contract.ts"
import { until } from "./support/Poll.ts"
import { runOnce, start } from "./support/Process.ts"
import { UA_PATH, WAGE_PATH } from "./support/TestApp.ts"

// Each test starts real processes: more than bun test's 5 s on a loaded machine.
setDefaultTimeout(30_000)

const realLooking = () => `tk_live_${randomBytes(24).toString("base64url")}`
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

const VALID = realLooking()
const SECOND = realLooking() // spent to reach the per-key 429
const DIGEST_ONLY = realLooking() // configured by its digest only
const WRONG = [
  realLooking(),
  `${VALID.slice(0, -1)}${VALID.endsWith("A") ? "B" : "A"}`, // one character off
  VALID.toUpperCase(),
  `${VALID}x`,
  VALID.slice(1)
]
const IN_QUERY = realLooking()
const SECRETS = [VALID, SECOND, DIGEST_ONLY, IN_QUERY, ...WRONG]

const dir = mkdtempSync(join(tmpdir(), "tools-api-secrets-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Where a secret must not appear: every secret, its full digest, and the Basic form of the valid key. */
const leaks = (text: string): Array<string> => {
  const found: Array<string> = []
  for (const secret of SECRETS) {
    if (text.includes(secret)) found.push(`key ${secret.slice(0, 12)}…`)
    if (text.includes(sha256(secret))) found.push(`digest of ${secret.slice(0, 12)}…`)
  }
  if (text.includes(btoa(`user:${VALID}`))) found.push("Basic credentials")
  return found
}

describe("no key text leaves the process", () => {
  test("through 200, 400, 401, 404, 405, 413, 422, 429 (key and address), /metrics, /docs, /openapi.json", async () => {
    const keysFile = join(dir, "keys.txt")
    writeFileSync(keysFile, `# keys\n${VALID}\n${SECOND}\nsha256:${sha256(DIGEST_ONLY)}\n`)
    const server = await start({
      API_KEYS_FILE: keysFile,
      LOG_LEVEL: "debug",
      RATE_LIMIT_PER_MINUTE: "6",
      AUTH_FAILURES_PER_MINUTE: "3",
      MAX_BODY_BYTES: "1024",
      TRUST_PROXY: "true"
    })
    const seen: Array<{ status: number; text: string }> = []
    let client = 0
    const send = async (
      method: string,
      path: string,
      init: { key?: string; authorization?: string; body?: string; headers?: Record<string, string> } = {}
    ) => {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        // each call its own client address, unless told, so 401s do not turn into 429s by accident
        "x-forwarded-for": `198.51.100.${++client % 250}`,
        ...init.headers
      }
      if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`
      if (init.authorization !== undefined) headers.authorization = init.authorization
      const response = await fetch(`${server.base}${path}`, { method, headers, body: init.body ?? null })
      const answer = await expectWithinContract(response, { method, path })
      seen.push({ status: answer.status, text: `${JSON.stringify([...answer.headers])}\n${answer.body}` })
      return answer
    }

    const parse = JSON.stringify({ operation: "parse", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0" })
    expect((await send("POST", UA_PATH, { key: VALID, body: parse })).status).toBe(200)
    expect((await send("POST", UA_PATH, { key: DIGEST_ONLY, body: '{"operation":"generate"}' })).status).toBe(200)
    expect(
      (await send("POST", `${WAGE_PATH}?api_key=${IN_QUERY}`, { key: VALID, body: '{"hourlyWage":20}' })).status
    ).toBe(200)
    expect((await send("POST", WAGE_PATH, { key: VALID, body: "{not json" })).status).toBe(400)
    expect((await send("POST", WAGE_PATH, { key: DIGEST_ONLY, body: '{"hourlyWage":-1}' })).status).toBe(422)
    expect((await send("POST", WAGE_PATH, { key: DIGEST_ONLY, body: "x".repeat(5_000) })).status).toBe(413)
    expect((await send("POST", WAGE_PATH, { body: "{}" })).status).toBe(401)
    expect((await send("POST", WAGE_PATH, { authorization: `Basic ${btoa(`user:${VALID}`)}` })).status).toBe(401)
    expect((await send("POST", WAGE_PATH, { authorization: VALID, body: "{}" })).status).toBe(401)
    for (const wrong of WRONG) expect((await send("POST", UA_PATH, { key: wrong, body: parse })).status).toBe(401)
    const sameAddress = { "x-forwarded-for": "203.0.113.77" }
    for (const wrong of WRONG) await send("POST", WAGE_PATH, { key: wrong, body: "{}", headers: sameAddress })
    expect(seen.at(-1)?.status).toBe(429)
    for (let i = 0; i < 7; i++) await send("POST", WAGE_PATH, { key: SECOND, body: '{"hourlyWage":1}' })
    expect(seen.at(-1)?.status).toBe(429)
    expect((await send("GET", `/nowhere?key=${IN_QUERY}`, { key: VALID })).status).toBe(404)
    expect((await send("GET", WAGE_PATH, { key: VALID })).status).toBe(405)
    expect((await send("DELETE", UA_PATH, { key: WRONG[0]! })).status).toBe(405)
    for (const path of ["/health", "/openapi.json", "/docs", "/metrics"]) {
      expect((await send("GET", path, { key: VALID })).status).toBe(200)
    }
    const metrics = seen.at(-1)!.text
    expect(metrics).toContain("auth_failures_total")

    expect(await server.stop()).toBe(0)
    expect(new Set(seen.map(({ status }) => status))).toEqual(new Set([200, 400, 401, 404, 405, 413, 422, 429]))
    // the logs were there to leak into: one line per request, debug on
    const requestLines = server
      .stdout()
      .split("\n")
      .filter((line) => line.includes('"message":"request"'))
    expect(requestLines.length).toBe(seen.length)
    expect(requestLines.some((line) => /"keyId":"key_[0-9a-f]{8}"/.test(line))).toBe(true)

    expect(leaks(server.stdout())).toEqual([])
    expect(leaks(server.stderr())).toEqual([])
    for (const { text } of seen) expect(leaks(text)).toEqual([])
  }, 30_000)
})

describe("a generated key", () => {
  test("with no key configured, the generated key is printed exactly once, on stderr, and nowhere else", async () => {
    const server = await start({ LOG_LEVEL: "debug" })
    const announced = /generated for this run only: (\S+)\n/
    await until(() => announced.test(server.stderr()))
    const key = announced.exec(server.stderr())?.[1]
    expect(key).toMatch(/^tk_[A-Za-z0-9_-]{43}$/)
    expect(server.stderr()).toContain("API_KEYS")
    const bodies: Array<string> = []
    for (const authorization of [`Bearer ${key}`, `Bearer ${key}x`, `Bearer ${key!.slice(0, -1)}`]) {
      const response = await fetch(`${server.base}${WAGE_PATH}`, {
        method: "POST",
        headers: { authorization },
        body: '{"hourlyWage":1}'
      })
      bodies.push(`${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`)
    }
    expect(bodies.map((body) => body.slice(0, 3))).toEqual(["200", "401", "401"])
    bodies.push(await (await fetch(`${server.base}/metrics`)).text())
    expect(await server.stop()).toBe(0)
    const count = (text: string) => text.split(key!.slice(0, -1)).length - 1
    expect(count(server.stderr())).toBe(1)
    expect(count(server.stdout())).toBe(0)
    expect(count(bodies.join("\n"))).toBe(0)
  }, 30_000)

  test("a start that fails prints no key at all", async () => {
    const result = await runOnce({ PORT: "abc" })
    expect(result.code).toBe(1)
    expect(result.stderr).not.toContain("tk_")
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1)
  })
})
