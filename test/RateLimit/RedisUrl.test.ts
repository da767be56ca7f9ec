/**
 * REDIS_URL reaches the client as options read with WHATWG `URL` (credentials, database, TLS), so the compiled
 * binary says nothing on stderr: given the string, the client read it with Node's deprecated `url.parse` (DEP0169).
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { clientOptions } from "../../src/RateLimit/Redis.ts"
import { binary } from "../support/Binary.ts"
import { until } from "../support/Poll.ts"
import { start } from "../support/Process.ts"
import { type RedisServer, startRedis } from "../support/Redis.ts"

const PASSWORD = "p@ss:w/rd"

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedis(PASSWORD)
})
afterAll(() => redis?.stop())

test("a URL's host, port, credentials (percent-decoded), database and TLS become the client's options", () => {
  expect(clientOptions(new URL("redis://cache.internal"))).toEqual({ host: "cache.internal", port: 6379 })
  expect(clientOptions(new URL("rediss://app:s%40cret@[::1]:6380/2"))).toEqual({
    host: "::1",
    port: 6380,
    username: "app",
    password: "s@cret",
    db: 2,
    tls: {}
  })
  expect(clientOptions(new URL("redis://:only-password@10.0.0.5/"))).toEqual({
    host: "10.0.0.5",
    port: 6379,
    password: "only-password"
  })
})

test("the compiled binary with REDIS_URL (a password, a database) shares limits through Redis and writes nothing on stderr", async () => {
  const url = `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${redis.port}/3`
  const server = await start({ API_KEYS: "redis-url-key", REDIS_URL: url }, await binary())
  try {
    await until(async () => (await (await fetch(`${server.base}/metrics`)).text()).includes("rate_limit_store_up 1"))
    const response = await fetch(`${server.base}/v1/tools/wage-estimator`, {
      method: "POST",
      headers: { authorization: "Bearer redis-url-key", "content-type": "application/json" },
      body: '{"hourlyWage":20}'
    })
    expect(response.status).toBe(200)
    // the bucket is in database 3
    await redis.client.select(3)
    expect((await redis.client.dbsize()) > 0).toBe(true)
    expect(await server.stop()).toBe(0)
    expect(server.stderr()).toBe("")
  } finally {
    server.proc.kill("SIGKILL")
  }
}, 60_000)
