/**
 * The Redis-backed RateLimiter against a real redis-server: two limiters (two instances' worth) share one bucket;
 * while Redis is stopped, killed or absent each falls back to its own buckets at once, says so once, and comes back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { Context, Effect, Layer, Logger, ManagedRuntime, Metric, References } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { canonicalAddress } from "../../src/Http/ClientAddress.ts"
import { RateLimiter, RateLimiterLive } from "../../src/RateLimit/Limiter.ts"
import { Metrics } from "../../src/Observability/Metrics.ts"
import { type RedisServer, startRedis } from "../support/Redis.ts"
import { TestClock } from "effect/testing"

// Real redis-server and timers on a shared machine: more than the 5 s default, never needed when all is well.
setDefaultTimeout(30_000)

let redis: RedisServer
const logs: Array<string> = []
const runtimes: Array<ManagedRuntime.ManagedRuntime<RateLimiter, unknown>> = []

beforeAll(async () => {
  redis = await startRedis()
})
afterEach(async () => {
  redis.resume()
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()))
})
afterAll(() => redis?.stop())

/** Each line as its message, then its annotations as JSON (`count` matches the start of the line). */
const capture = Logger.layer([
  Logger.make(({ message, fiber }) =>
    logs.push(`${String([message].flat()[0])} ${JSON.stringify(fiber.getRef(References.CurrentLogAnnotations))}`)
  )
])

/** A limiter as one instance builds it (REDIS_URL set, so the Redis one): its own memory, the shared Redis. */
/** `clock`: this instance's clock (TestClock: 1970, a host whose clock is decades wrong). */
const limiter = async (url = redis.url, perMinute = 5, clock: Layer.Layer<never> = Layer.empty) => {
  const env = { REDIS_URL: url, RATE_LIMIT_PER_MINUTE: String(perMinute), AUTH_FAILURES_PER_MINUTE: "3" }
  // provideMerge: the logger must be in the runtime's context too, where the requests' decisions log.
  const runtime = ManagedRuntime.make(
    RateLimiterLive.pipe(
      Layer.provide([AppConfig.fromEnv(env), Metrics.layer]),
      Layer.provideMerge(capture),
      Layer.provideMerge(clock),
      Layer.provide(Layer.succeed(Metric.MetricRegistry, registry))
    )
  )
  runtimes.push(runtime)
  const service = await runtime.runPromise(RateLimiter)
  return {
    take: (id: string) => runtime.runPromise(service.take(id)),
    // named as the edge names a client (ClientAddress.ts)
    fail: (address: string) => runtime.runPromise(service.recordAuthFailure(canonicalAddress(address) ?? "unknown"))
  }
}

const timed = async <A>(f: () => Promise<A>) => {
  const started = performance.now()
  const value = await f()
  return { value, ms: performance.now() - started }
}
/** EVALSHA calls Redis has run so far (INFO commandstats). */
const evalshaCalls = async () =>
  Number(/cmdstat_evalsha:calls=(\d+)/.exec(await redis.client.info("commandstats"))?.[1] ?? 0)
// the limiters' metrics, in a registry of this file's own
const registry: Metric.MetricRegistry = new Map()
const stateOf = (name: string) =>
  Metric.snapshotUnsafe(Context.make(Metric.MetricRegistry, registry)).find((metric) => metric.id === name)?.state
const gauge = () => stateOf("rate_limit_store_up") as Metric.GaugeState<number>
const fallbacks = () => (stateOf("rate_limit_store_fallbacks_total") as Metric.CounterState<number>).count
const count = (text: string) => logs.filter((line) => line.startsWith(text)).length
const waitUntil = async (ok: () => Promise<boolean>, ms = 3_000) => {
  const deadline = Date.now() + ms
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time")
    await Bun.sleep(50)
  }
}
let probes = 0
/** Until a take by this limiter lands in Redis (a bucket key appears there), not in its memory. */
const untilShared = (l: { take: (id: string) => Promise<unknown> }, server = redis) =>
  waitUntil(async () => {
    const id = `probe-${probes++}`
    await l.take(id)
    return (await server.client.exists(`tools-api:ratelimit:key:${id}`)) === 1
  })

describe("shared buckets", () => {
  test("two instances take from one bucket per key", async () => {
    const [a, b] = [await limiter(), await limiter()]
    const decisions = []
    for (let i = 0; i < 8; i++) decisions.push(await (i % 2 === 0 ? a : b).take("shared-1"))
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false])
    expect(decisions.slice(0, 5).map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0])
    expect((await b.take("shared-2")).remaining).toBe(4)
  })

  test("and one failed-authentication bucket per address, IPv4-mapped IPv6 counted as IPv4", async () => {
    const [a, b] = [await limiter(), await limiter()]
    const results = [await a.fail("192.0.2.9"), await b.fail("::ffff:192.0.2.9"), await a.fail("192.0.2.9")]
    expect(results.map((d) => d.allowed)).toEqual([true, true, true])
    expect((await b.fail("192.0.2.9")).allowed).toBe(false)
  })
})

describe("on Redis's clock", () => {
  test("an instance whose own clock is decades wrong still takes from the one shared bucket", async () => {
    const [wrong, right] = [await limiter(redis.url, 5, TestClock.layer()), await limiter()]
    const decisions = []
    for (let i = 0; i < 8; i++) decisions.push(await (i % 2 === 0 ? wrong : right).take("skewed"))
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false])
  })
})

describe("when Redis fails", () => {
  test("stopped (SIGSTOP): one request waits for the budget, the rest go straight to memory; logs once", async () => {
    const [a, b] = [await limiter(), await limiter()]
    for (let i = 0; i < 5; i++) await a.take("stall")
    expect((await b.take("stall")).allowed).toBe(false) // the shared bucket is empty
    const before = { logs: count("Redis does not answer"), fallbacks: fallbacks(), evalsha: await evalshaCalls() }
    redis.pause()
    const first = await timed(() => a.take("stall"))
    expect(first.ms).toBeLessThan(1_000)
    expect(first.value.allowed).toBe(true) // the instance's own, full bucket
    const next = await Promise.all(Array.from({ length: 20 }, () => timed(() => a.take("other"))))
    expect(Math.max(...next.map((r) => r.ms))).toBeLessThan(1_000)
    expect(count("Redis does not answer") - before.logs).toBe(1)
    expect(gauge().value).toBe(0)
    expect(fallbacks() - before.fallbacks).toBe(21)

    redis.resume()
    // Only the first request's command reached Redis (now answered, late); the 20 others never waited on it.
    await waitUntil(async () => (await evalshaCalls()) - before.evalsha >= 1)
    expect((await evalshaCalls()) - before.evalsha).toBe(1)
    redis.resume()
    await untilShared(a)
    expect((await a.take("stall")).allowed).toBe(false) // the shared bucket again; its own still had 4
    expect(count("Redis answers again")).toBe(1)
    expect(gauge().value).toBe(1)
  })

  test("killed: answers at once from memory; restarted empty: shared again", async () => {
    const [a, b] = [await limiter(), await limiter()]
    await redis.kill()
    const answers = await Promise.all(Array.from({ length: 10 }, () => timed(() => a.take("killed"))))
    expect(Math.max(...answers.map((r) => r.ms))).toBeLessThan(1_000)
    expect(answers.filter((r) => r.value.allowed).length).toBe(5) // this instance's own bucket of 5
    await redis.restart()
    await Promise.all([untilShared(a), untilShared(b)])
    const shared = []
    for (let i = 0; i < 8; i++) shared.push(await (i % 2 === 0 ? b : a).take("killed"))
    expect(shared.filter((d) => d.allowed).length).toBe(5) // one bucket of 5 for both, not 5 each
  })

  test("absent at start: the instance starts on its own buckets and joins Redis when it appears", async () => {
    const other = await startRedis()
    await other.kill()
    const started = await timed(() => limiter(other.url))
    expect(started.ms).toBeLessThan(2_000)
    const a = started.value
    expect(gauge().value).toBe(0)
    expect((await a.take("late")).allowed).toBe(true)
    await other.restart()
    await untilShared(a, other)
    expect(gauge().value).toBe(1)
    await other.stop()
  })
})

describe("a wrong password", () => {
  test("is logged as authentication failed, never as an outage and never with the password; memory meanwhile", async () => {
    const guarded = await startRedis("right-password-7c1d")
    try {
      const wrong = `redis://:wrong-password-5e2a@127.0.0.1:${guarded.port}`
      const before = logs.length
      const a = await limiter(wrong)
      expect((await a.take("refused")).allowed).toBe(true) // answered, from this instance's memory
      expect(gauge().value).toBe(0)
      const lines = logs.slice(before)
      expect(lines.filter((line) => line.startsWith("Redis authentication failed"))).toHaveLength(1)
      expect(lines.find((line) => line.startsWith("Redis authentication failed"))).toContain(
        '"reason":"authentication failed (WRONGPASS'
      )
      expect(lines.filter((line) => line.startsWith("Redis does not answer"))).toEqual([])
      expect(lines.join("\n")).not.toContain("password-")

      const right = await limiter(`redis://:right-password-7c1d@127.0.0.1:${guarded.port}`)
      await untilShared(right, guarded)
    } finally {
      await guarded.stop()
    }
  })
})
