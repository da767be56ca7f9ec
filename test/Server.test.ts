/** Against a real listening server started from source: what only a real socket and process show. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { until } from "./support/Poll.ts"
import { runOnce, type Running, start } from "./support/Process.ts"
import { httpRequest, open } from "./support/Socket.ts"

// Each test starts real processes: more than bun test's 5 s on a loaded machine.
setDefaultTimeout(30_000)

const KEY = "server-test-key-1"
let server: Running

beforeAll(async () => {
  server = await start({ API_KEYS: KEY, AUTH_FAILURES_PER_MINUTE: "2" })
})
afterAll(async () => {
  if (server.proc.exitCode === null) await server.stop()
})

const post = (path: string, body: string, key: string, headers: Record<string, string> = {}, base = server.base) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
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

  test("limits failed authentications by the socket's peer address; X-Forwarded-For is ignored", async () => {
    const forged = (address: string) => ({ "x-forwarded-for": address })
    expect((await post("/v1/tools/wage-estimator", "{}", "wrong", forged("10.0.0.1"))).status).toBe(401)
    expect((await post("/v1/tools/wage-estimator", "{}", "wrong", forged("10.0.0.2"))).status).toBe(401)
    const limited = await post("/v1/tools/wage-estimator", "{}", "wrong", forged("10.0.0.3"))
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
    // this request's own line, found by its id: an earlier test's line may still be on its way
    const requestId = `log-line-${crypto.randomUUID()}`
    // whole lines only: the last piece may still be being written
    const ours = () =>
      server
        .stdout()
        .split("\n")
        .slice(0, -1)
        .filter((line) => line.includes(requestId))
        .map((line) => JSON.parse(line))
    await post("/v1/tools/wage-estimator", '{"hourlyWage":3}', KEY, { "x-request-id": requestId })
    // its line is written once it is answered, and read from the pipe after that
    await until(() => ours().length > 0)
    const lines = ours()
    expect(lines).toHaveLength(1)
    const line = lines[0].annotations
    expect(lines[0].message).toBe("request")
    expect(line).toMatchObject({ method: "POST", path: "/v1/tools/wage-estimator", status: 200, requestId })
    expect(line.keyId).toMatch(/^key_[0-9a-f]{8}$/)
    expect(typeof line.durationMs).toBe("number")
    expect(server.stdout() + server.stderr()).not.toContain(KEY)
  })
})

describe("behind a proxy (TRUST_PROXY=true)", () => {
  let proxied: Running
  beforeAll(async () => {
    proxied = await start({ API_KEYS: KEY, AUTH_FAILURES_PER_MINUTE: "2", TRUST_PROXY: "true" })
  })
  afterAll(async () => {
    await proxied.stop()
  })
  const from = (forwardedFor: string | undefined, key = "wrong") =>
    post(
      "/v1/tools/wage-estimator",
      '{"hourlyWage":1}',
      key,
      forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
      proxied.base
    ).then((response) => response.status)

  test("the client is the last X-Forwarded-For entry; entries before it are the client's to forge", async () => {
    expect(await from("198.51.100.1, 203.0.113.5")).toBe(401)
    expect(await from("198.51.100.2,203.0.113.5")).toBe(401)
    expect(await from("10.9.9.9, 203.0.113.5")).toBe(429) // a forged first entry changes nothing
    expect(await from("203.0.113.5, 198.51.100.7")).toBe(401) // another client behind the same proxy
    expect(await from("::ffff:203.0.113.5")).toBe(429) // IPv4-mapped IPv6 is the IPv4 address
    expect(await from(undefined)).toBe(401) // no header: the socket's peer, with its own budget
    expect(await from("203.0.113.5", KEY)).toBe(200) // a valid key is never blocked by its address
  })
})

describe("slow clients", () => {
  test("a client that sends half a request and stops is disconnected after IDLE_TIMEOUT_SECONDS", async () => {
    const running = await start({ API_KEYS: KEY, IDLE_TIMEOUT_SECONDS: "2" })
    try {
      const slow = open(running.port, 15_000)
      await slow.write(
        httpRequest("POST", "/v1/tools/wage-estimator", { authorization: `Bearer ${KEY}`, "content-length": "40" }) +
          '{"hourlyWage"'
      )
      const answer = await slow.answer
      expect(answer.closed).toBe(true)
      expect(answer.status).toBeUndefined()
      // Bun checks idle connections every few seconds: closed after 2 s, before 2 s more have passed
      expect(answer.elapsedMs).toBeGreaterThanOrEqual(1_900)
      expect(answer.elapsedMs).toBeLessThan(8_000)
    } finally {
      await running.stop()
    }
  }, 20_000)
})

describe("start-up", () => {
  test("--help and --version", async () => {
    const help = await runOnce({}, ["--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("USAGE")
    expect(help.stdout).toContain("SIGHUP re-reads API_KEYS_FILE")
    const version = await runOnce({}, ["--version"])
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})
