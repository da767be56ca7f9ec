/**
 * One key spending its whole budget on the slowest strings we know (the device patterns' worst cases) never holds the
 * rest of the service: /health, another key's requests and the other worker keep answering at their usual pace, in
 * one process and with WORKERS=2 over Redis. Real processes: the event loop is what is at stake.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { type Running, start } from "./support/Process.ts"
import { type RedisServer, startRedis } from "./support/Redis.ts"

const SLOW = 90_000
/** Far above an answer's usual few milliseconds on a loaded machine, far below the seconds a stalled loop took. */
const HELD_MS = 1_000
/** A body that holds 100 strings of 2 KB: an operator may allow it, so the worst batch is tested. */
const BODY = String(256 * 1024)

/** Distinct (so none is cached) 2 KB strings of repeated brand tokens, on which Matomo's patterns backtracked. */
const worstStrings = (n: number): Array<string> =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? `${i} ${"BOWAY ".repeat(400)}`.slice(0, 2048)
      : (`WAP ${i} ` + "DATANG ".repeat(300)).slice(0, 2036) + "9999; K)"
  )

const post = (base: string, key: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

/** Probes `url` back to back (each with `init`) until `until` settles: every status and the slowest answer. */
const probe = async (until: Promise<unknown>, request: () => Promise<Response>) => {
  let done = false
  void until.finally(() => (done = true))
  const statuses: Array<number> = []
  let slowest = 0
  while (!done) {
    const started = performance.now()
    const response = await request()
    await response.arrayBuffer()
    statuses.push(response.status)
    slowest = Math.max(slowest, performance.now() - started)
    await Bun.sleep(5)
  }
  return { statuses, slowest }
}

describe("one key's worst-case budget", () => {
  let server: Running
  beforeAll(async () => {
    server = await start({ API_KEYS: "attacker-key,attacker-two,other-key", MAX_BODY_BYTES: BODY })
    // warm: the device database and the code paths, as a serving process has them
    await post(server.base, "other-key", "/v1/tools/user-agent-parser", { operation: "parse", userAgent: "SM-A536B" })
  }, SLOW)
  afterAll(() => server?.stop())

  test(
    "a batch of 100 worst strings: /health and another key's requests are not held",
    async () => {
      const attack = post(server.base, "attacker-key", "/v1/tools/user-agent-parser", {
        operation: "parse",
        userAgents: worstStrings(100)
      })
      const [answer, health, wage] = await Promise.all([
        attack,
        probe(attack, () => fetch(`${server.base}/health`)),
        probe(attack, () => post(server.base, "other-key", "/v1/tools/wage-estimator", { hourlyWage: 20 }))
      ])
      expect(answer.status).toBe(200)
      expect(((await answer.json()) as { data: Array<unknown> }).data).toHaveLength(100)
      expect(health.statuses.every((status) => status === 200)).toBe(true)
      expect(health.slowest).toBeLessThan(HELD_MS)
      expect(wage.slowest).toBeLessThan(HELD_MS)
    },
    SLOW
  )

  test(
    "the same budget as 100 single requests at once: /health is not held",
    async () => {
      const attack = Promise.all(
        worstStrings(100).map((userAgent, i) =>
          post(server.base, "attacker-two", "/v1/tools/user-agent-parser", {
            operation: "parse",
            userAgent: `x${i}${userAgent}`.slice(0, 2048)
          })
        )
      )
      const health = await probe(attack, () => fetch(`${server.base}/health`))
      expect(health.statuses.every((status) => status === 200)).toBe(true)
      expect(health.slowest).toBeLessThan(HELD_MS)
    },
    SLOW
  )
})

describe("WORKERS=2 over Redis, worst-case batches from several keys", () => {
  let redis: RedisServer
  let primary: Running
  const keys = ["w-one", "w-two", "w-three", "w-four"]
  beforeAll(async () => {
    redis = await startRedis()
    primary = await start(
      { WORKERS: "2", REDIS_URL: redis.url, API_KEYS: keys.join(","), MAX_BODY_BYTES: BODY },
      undefined,
      45_000
    )
  }, SLOW)
  afterAll(async () => {
    await primary?.stop()
    redis?.stop()
  })

  test(
    "every health probe answers and no worker is killed as hung",
    async () => {
      const attack = (async () => {
        for (const [round, key] of keys.entries()) {
          const batch = worstStrings(100).map((ua) => `${round}${ua}`.slice(0, 2048))
          const answer = await post(primary.base, key, "/v1/tools/user-agent-parser", {
            operation: "parse",
            userAgents: batch
          })
          expect(answer.status).toBe(200)
          await Bun.sleep(250)
        }
      })()
      const health = await probe(attack, () => fetch(`${primary.base}/health`))
      await attack
      expect(health.statuses.length).toBeGreaterThan(10)
      expect(health.statuses.every((status) => status === 200)).toBe(true)
      expect(health.slowest).toBeLessThan(HELD_MS)
      expect(primary.stdout()).not.toContain("Worker stopped answering")
    },
    SLOW
  )
})
