/**
 * TRUST_PROXY=true through a real process: X-Forwarded-For names a failed-authentication bucket only when its last
 * entry is an IP address, so a client cannot make buckets (and grow memory) with junk in it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { type Running, start } from "./support/Process.ts"
import { startRedis } from "./support/Redis.ts"

setDefaultTimeout(60_000)

const KEY = "trust-proxy-test-key-1"
let server: Running

beforeAll(async () => {
  server = await start({ API_KEYS: KEY, AUTH_FAILURES_PER_MINUTE: "3", TRUST_PROXY: "true" })
})
afterAll(async () => {
  await server.stop()
})

const from = (forwardedFor: string, key = "wrong", base = server.base) =>
  fetch(`${base}/v1/tools/wage-estimator`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-forwarded-for": forwardedFor },
    body: '{"hourlyWage":1}'
  }).then((response) => response.status)

describe("X-Forwarded-For behind a trusted proxy", () => {
  test("unique 8 KB junk values are all the socket's peer: limited after its budget", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 50; i++) statuses.push(await from(`${i}:${crypto.randomUUID()}${"j".repeat(8_000)}`))
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401])
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]))
    // an address the proxy appended is its own client, with its own budget; the peer's key still works
    expect(await from("198.51.100.1")).toBe(401)
    expect(await from(`${"j".repeat(100)}`, KEY)).toBe(200)
  })

  test("one client, one budget: its IPv4-mapped spellings, and every host of its IPv6 /64", async () => {
    expect(await from("10.8.8.8")).toBe(401)
    expect(await from("::ffff:10.8.8.8")).toBe(401)
    expect(await from("::ffff:a08:808")).toBe(401)
    expect(await from("0:0:0:0:0:FFFF:0A08:0808")).toBe(429)
    for (const host of ["2001:db8:aa:bb::1", "2001:db8:aa:bb::2", "2001:db8:aa:bb:1:2:3:4"]) {
      expect(await from(`203.0.113.1, ${host}`)).toBe(401)
    }
    expect(await from("2001:DB8:AA:BB:0:0:0:ffff")).toBe(429)
    expect(await from("2001:db8:aa:bc::1")).toBe(401)
  })
})

describe("with REDIS_URL", () => {
  test("junk values make no keys in Redis: one bucket, the peer's, which expires", async () => {
    const redis = await startRedis()
    const shared = await start({
      API_KEYS: KEY,
      AUTH_FAILURES_PER_MINUTE: "3",
      TRUST_PROXY: "true",
      REDIS_URL: redis.url
    })
    try {
      const statuses: Array<number> = []
      for (let i = 0; i < 30; i++) statuses.push(await from(`${i}:${"j".repeat(8_000)}`, "wrong", shared.base))
      expect(new Set(statuses.slice(3))).toEqual(new Set([429]))
      const keys = await redis.client.keys("*")
      expect(keys.length).toBeGreaterThan(0)
      expect(keys.every((key) => key.length < 100 && key.includes("127.0.0.1"))).toBe(true)
      for (const key of keys) expect(await redis.client.pttl(key)).toBeGreaterThan(0)
    } finally {
      await shared.stop()
      await redis.stop()
    }
  })
})
