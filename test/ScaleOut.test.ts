/**
 * Scaling out, with real processes and a real redis-server: instances and workers share one limit per key; while
 * Redis is stopped or killed every request is still answered quickly and none gets a 5xx; when Redis is back the
 * limit is shared again. WORKERS=N: one port, a primary that restarts a dead worker and drains them all on SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { until } from "./support/Poll.ts"
import { runOnce, type Running, start } from "./support/Process.ts"
import { type RedisServer, startRedis } from "./support/Redis.ts"

/**
 * Real processes on a shared 2-core machine: starts take seconds under load, so every test gets time; a hook gets more
 * than its waits (a 45 s start, then 15 s for Redis), so a failed one says what it waited for, not bun's timeout.
 */
const SLOW = 90_000

const KEYS = ["scale-key-one", "scale-key-two", "scale-key-three", "scale-key-four", "scale-key-five"] as const
const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex")

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(() => redis?.stop())

/** `n` concurrent POSTs with `key`, spread over `bases` in turn; each one's status and time to answer. */
const burst = (bases: ReadonlyArray<string>, key: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const started = performance.now()
      const response = await fetch(`${bases[i % bases.length]}/v1/tools/wage-estimator`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: '{"hourlyWage":20}'
      })
      await response.arrayBuffer()
      return { status: response.status, ms: performance.now() - started }
    })
  )
const admitted = (answers: ReadonlyArray<{ status: number }>) => answers.filter((a) => a.status === 200).length
/** 100 admitted in all (at most 102), every other answer a 429; on failure, says what came back and why. */
const expectOneLimit = (answers: ReadonlyArray<{ status: number }>, servers: ReadonlyArray<Running>) => {
  const byStatus: Record<number, number> = {}
  for (const { status } of answers) byStatus[status] = (byStatus[status] ?? 0) + 1
  const outages = servers.flatMap((s) =>
    s
      .stdout()
      .split("\n")
      .filter((line) => line.includes("Redis does not"))
  )
  const summary = `${JSON.stringify(byStatus)}; outages logged: ${outages.join(" | ") || "none"}`
  const ok = admitted(answers) >= 100 && admitted(answers) <= 102 && admitted(answers) + (byStatus[429] ?? 0) === 150
  expect(ok ? "one limit" : summary).toBe("one limit")
}

const metric = async (base: string, name: string) => {
  const text = await (await fetch(`${base}/metrics`)).text()
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1])
}
/** Every instance limits through Redis again (its probe runs once a second; slower on a loaded machine). */
const storeUpOnAll = (servers: ReadonlyArray<Running>) =>
  until(
    async () => (await Promise.all(servers.map((s) => metric(s.base, "rate_limit_store_up")))).every((v) => v === 1),
    15_000
  )
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0

describe("two instances, one Redis", () => {
  let servers: Array<Running> = []
  const bases = () => servers.map((s) => s.base)
  beforeAll(async () => {
    const env = { API_KEYS: KEYS.join(","), REDIS_URL: redis.url }
    servers = await Promise.all([start(env, undefined, 45_000), start(env, undefined, 45_000)])
    // on a loaded machine an instance may start before Redis answers it (in 1 s), limiting alone until its probe does
    await storeUpOnAll(servers)
  }, SLOW)
  afterAll(async () => {
    expect(await Promise.all(servers.map((s) => s.stop()))).toEqual([0, 0])
  }, SLOW)

  test(
    "150 concurrent requests with one key, over both, admit 100 in all",
    async () => {
      expectOneLimit(await burst(bases(), KEYS[0], 150), servers)
    },
    SLOW
  )

  test(
    "Redis holds the key's bucket under its digest, never the key",
    async () => {
      const names = await redis.client.keys("*")
      expect(names).toContain(`tools-api:ratelimit:key:${sha256(KEYS[0]).slice(0, 32)}`)
      expect(names.some((name) => KEYS.some((key) => name.includes(key)))).toBe(false)
    },
    SLOW
  )

  test(
    "Redis stopped (SIGSTOP): every request answered within 1 s, none 5xx; shared again after SIGCONT",
    async () => {
      const outagesBefore = servers.map((server) => count(server.stdout(), /Redis does not answer/g))
      redis.pause()
      try {
        const answers = await burst(bases(), KEYS[1], 60)
        expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(1_000)
        expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true)
        expect(await metric(servers[0]!.base, "rate_limit_store_up")).toBe(0)
        expect(await metric(servers[0]!.base, "rate_limit_store_fallbacks_total")).toBeGreaterThan(0)
        // one line for the whole outage, not one per request (a loaded machine may later flap; that is another)
        const outages = servers.map((server, i) => count(server.stdout(), /Redis does not answer/g) - outagesBefore[i]!)
        expect(outages).toEqual([1, 1])
      } finally {
        redis.resume()
      }
      await storeUpOnAll(servers)
      for (const server of servers) {
        expect(server.stdout().match(/Redis answers again/g)?.length ?? 0).toBeGreaterThanOrEqual(1)
      }
      expectOneLimit(await burst(bases(), KEYS[2], 150), servers)
    },
    SLOW
  )

  test(
    "Redis killed: every request answered within 1 s, none 5xx; shared again once restarted",
    async () => {
      await redis.kill()
      const answers = await burst(bases(), KEYS[3], 60)
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(1_000)
      expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true)
      await redis.restart()
      await storeUpOnAll(servers)
      expectOneLimit(await burst(bases(), KEYS[4], 150), servers)
    },
    SLOW
  )
})

describe("WORKERS=2", () => {
  let primary: Running
  beforeAll(async () => {
    primary = await start({ WORKERS: "2", REDIS_URL: redis.url }, undefined, 45_000)
  }, SLOW)
  // the last test stops it and checks how; if an earlier one failed, it is stopped here
  afterAll(async () => {
    if (primary?.proc.exitCode === null) await primary.stop()
  }, SLOW)

  const workerPids = () => [...primary.stdout().matchAll(/"Worker started".*?"pid":(\d+)/g)].map((m) => Number(m[1]))
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }

  test(
    "the primary prints one address and one generated key, which every worker accepts",
    async () => {
      expect(primary.stdout().match(/Listening on/g)).toHaveLength(1)
      expect(workerPids()).toHaveLength(2)
      // stdout and stderr are separate pipes: the key's line, written after "Listening on", may be read later
      await until(() => /generated for this run only/.test(primary.stderr()))
      // each worker logs whether Redis answered it at start, then each outage and each return: one limit once all
      // that went down came back (on a loaded machine a worker may start before Redis answers it in 1 s)
      const out = () => primary.stdout()
      await until(() => count(out(), /Redis does not answer/g) === count(out(), /Redis answers again/g), 15_000)
      expect(primary.stderr().match(/generated for this run only/g)).toHaveLength(1)
      const key = /generated for this run only: (\S+)/.exec(primary.stderr())![1]!
      expectOneLimit(await burst([primary.base], key, 150), [primary])
    },
    SLOW
  )

  test(
    "a worker that dies is restarted, and the port keeps answering",
    async () => {
      const [victim] = workerPids()
      process.kill(victim!, "SIGKILL")
      await until(() => workerPids().length === 3, 10_000)
      expect(primary.stdout()).toContain("Worker exited; restarting it")
      const health = await Promise.all(Array.from({ length: 20 }, () => fetch(`${primary.base}/health`)))
      expect(health.every((response) => response.status === 200)).toBe(true)
    },
    SLOW
  )

  test(
    "SIGTERM drains every worker and exits 0",
    async () => {
      const pids = workerPids().filter(alive)
      expect(pids).toHaveLength(2)
      expect(await primary.stop()).toBe(0)
      expect(pids.filter(alive)).toEqual([])
      expect(await fetch(`${primary.base}/health`).catch(() => "refused")).toBe("refused")
    },
    SLOW
  )
})

describe("start-up", () => {
  for (const env of [{}, { WORKERS: "2" }]) {
    test(
      `a malformed REDIS_URL stops the start${"WORKERS" in env ? " (WORKERS=2)" : ""}: exit 1, one line`,
      async () => {
        const result = await runOnce({ API_KEYS: "k", PORT: "0", REDIS_URL: "localhost:6379", ...env })
        expect(result.code).toBe(1)
        expect(result.stderr.trim().split("\n")).toHaveLength(1)
        expect(result.stderr).toContain("REDIS_URL must start with redis://")
      },
      SLOW
    )
  }
})
