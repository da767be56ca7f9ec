/** Against a real listening server started from source: what only a real socket and process show. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { runOnce, type Running, start } from "./support/Process.ts"

const KEY = "server-test-key-1"
let server: Running

beforeAll(async () => {
  server = await start({ API_KEYS: KEY, AUTH_FAILURES_PER_MINUTE: "2" })
})
afterAll(async () => {
  if (server.proc.exitCode === null) await server.stop()
})

const post = (path: string, body: string, key: string) =>
  fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body
  })

describe("a real server", () => {
  test("serves both tools over a socket", async () => {
    const wage = await post("/v1/tools/wage-estimator", '{"annualSalary":50000}', KEY)
    expect(wage.status).toBe(200)
    expect(((await wage.json()) as any).estimates.monthly).toBe(4166.67)
    const ua = await post("/v1/tools/user-agent-parser", '{"operation":"generate","seed":7}', KEY)
    expect(ua.status).toBe(200)
  })

  test("limits failed authentications by the socket's peer address", async () => {
    expect((await post("/v1/tools/wage-estimator", "{}", "wrong")).status).toBe(401)
    expect((await post("/v1/tools/wage-estimator", "{}", "wrong")).status).toBe(401)
    const limited = await post("/v1/tools/wage-estimator", "{}", "wrong")
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect((await post("/v1/tools/wage-estimator", '{"hourlyWage":1}', KEY)).status).toBe(200)
  })

  test("a body far over the limit gets the 413 envelope, declared or chunked, without being read", async () => {
    const big = "x".repeat(4 << 20)
    const declared = await post("/v1/tools/wage-estimator", big, KEY)
    expect(declared.status).toBe(413)
    expect(((await declared.json()) as any).error.code).toBe("payload_too_large")
    const chunked = await fetch(`${server.base}/v1/tools/wage-estimator`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: new Blob([big]).stream(),
      duplex: "half"
    })
    expect(chunked.status).toBe(413)
    expect(((await chunked.json()) as any).error.code).toBe("payload_too_large")
  })

  test("logs one JSON line per request with the key's id, never the key", async () => {
    await post("/v1/tools/wage-estimator", '{"hourlyWage":3}', KEY)
    await Bun.sleep(50)
    const lines = server
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    const requests = lines.filter((line) => line.message === "request")
    expect(requests.length).toBeGreaterThan(0)
    const last = requests.at(-1).annotations
    expect(last).toMatchObject({ method: "POST", path: "/v1/tools/wage-estimator", status: 200 })
    expect(last.keyId).toMatch(/^key_[0-9a-f]{8}$/)
    expect(typeof last.requestId).toBe("string")
    expect(typeof last.durationMs).toBe("number")
    expect(server.stdout() + server.stderr()).not.toContain(KEY)
  })
})

describe("start-up", () => {
  test("with no key configured, one is generated, printed once on stderr, and works", async () => {
    const running = await start({})
    try {
      const key = /generated for this run only: (\S+)/.exec(running.stderr())?.[1]
      expect(key).toBeDefined()
      expect(running.stderr()).toContain("API_KEYS")
      const response = await fetch(`${running.base}/v1/tools/wage-estimator`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: '{"hourlyWage":1}'
      })
      expect(response.status).toBe(200)
      expect(running.stdout()).not.toContain(key!)
    } finally {
      expect(await running.stop()).toBe(0)
    }
  })

  const bad: Array<[string, string]> = [
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["RATE_LIMIT_PER_MINUTE", "0"],
    ["AUTH_FAILURES_PER_MINUTE", "-3"],
    ["MAX_BODY_BYTES", "16k"],
    ["LOG_LEVEL", "loud"],
    ["LOG_FORMAT", "xml"],
    ["METRICS", "maybe"],
    ["TRUST_PROXY", "2"],
    ["WORKERS", "2"],
    ["API_KEYS_FILE", "/nonexistent/keys.txt"]
  ]
  for (const [name, value] of bad) {
    test(`${name}=${value} stops the start: exit 1, one line naming it`, async () => {
      const { code, stderr, stdout } = await runOnce({ API_KEYS: KEY, PORT: "0", [name]: value })
      expect(code).toBe(1)
      const lines = stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(name)
      expect(stdout).not.toContain("Listening")
    })
  }

  test("--help and --version", async () => {
    const help = await runOnce({}, ["--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("Usage")
    const version = await runOnce({}, ["--version"])
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})
