/**
 * The Lua token bucket against a real redis-server, compared with the reference model (Domain/TokenBucket.ts).
 * Redis's TIME cannot be faked, so the model comparison passes the script its optional `now` (tests only); the
 * tests after it run on Redis's own clock.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { ConfigProvider, Effect, Exit, Layer, ManagedRuntime } from "effect"
import * as fc from "fast-check"
import { AppConfig, parseRedisUrl } from "../../src/Config.ts"
import { bucketKey, TAKE_SCRIPT_SHA } from "../../src/Domain/RedisBucket.ts"
import { type Bucket, take } from "../../src/Domain/TokenBucket.ts"
import { RedisStore } from "../../src/Services/RedisStore.ts"
import { type RedisServer, startRedis } from "../support/Redis.ts"

// Real redis-server and timers on a shared machine: more than the 5 s default, never needed when all is well.
setDefaultTimeout(30_000)

let redis: RedisServer
let runtime: ManagedRuntime.ManagedRuntime<RedisStore, unknown>

/** The settings as the service reads them at start, from these environment variables. */
const settings = (env: Record<string, string>) =>
  AppConfig.layer.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))

beforeAll(async () => {
  redis = await startRedis()
  runtime = ManagedRuntime.make(RedisStore.layer.pipe(Layer.provide(settings({ REDIS_URL: redis.url }))))
})
afterAll(async () => {
  await runtime.dispose()
  await redis.stop()
})

const store = () => runtime.runPromise(RedisStore)
const perMinute = (capacity: number) => ({ capacity, windowMs: 60_000 })
let run = 0

describe("the Lua script", () => {
  test("decides exactly as the reference model on random sequences, for several keys", async () => {
    const s = await store()
    const step = fc.record({
      advanceMs: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 120_000 })),
      key: fc.integer({ min: 0, max: 2 }),
      takes: fc.integer({ min: 0, max: 5 })
    })
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.array(step, { maxLength: 80 }), async (capacity, steps) => {
        const shape = perMinute(capacity)
        const prefix = `model-${run++}-`
        const model = new Map<number, Bucket>()
        let now = 1_760_000_000_000
        for (const { advanceMs, key, takes } of steps) {
          now += advanceMs
          for (let i = 0; i < takes; i++) {
            const expected = take(shape, model.get(key), now)
            model.set(key, expected.bucket)
            const actual = await Effect.runPromise(s.take("key", prefix + key, shape, now))
            expect(actual).toEqual(expected.decision)
          }
        }
      }),
      { numRuns: 100 }
    )
  })

  test("on Redis's clock: the key expires when the bucket would be full again", async () => {
    const s = await store()
    const first = await Effect.runPromise(s.take("key", "clock", perMinute(100)))
    expect(first).toEqual({ allowed: true, limit: 100, remaining: 99, resetSeconds: 1, retryAfterSeconds: 0 })
    const ttl = await redis.client.pttl(bucketKey("key", "clock"))
    expect(ttl).toBeGreaterThan(500)
    expect(ttl).toBeLessThanOrEqual(600) // one token back at 100 a minute: 600 ms
    await Effect.runPromise(s.take("key", "fast", perMinute(6_000))) // one token every 10 ms
    await Bun.sleep(60)
    expect(await redis.client.exists(bucketKey("key", "fast"))).toBe(0)
  })

  test("refills on Redis's clock", async () => {
    const s = await store()
    const shape = perMinute(120) // one token every 500 ms
    const burst = await Effect.runPromise(Effect.all(Array.from({ length: 121 }, () => s.take("key", "refill", shape))))
    expect(burst.filter((d) => d.allowed).length).toBe(120)
    expect(burst.at(-1)).toMatchObject({ allowed: false, retryAfterSeconds: 1 })
    await Bun.sleep(550)
    expect(await Effect.runPromise(s.take("key", "refill", shape))).toMatchObject({ allowed: true, remaining: 0 })
  })

  test("is loaded once and called by EVALSHA; after SCRIPT FLUSH it is sent again (NOSCRIPT fallback)", async () => {
    const s = await store()
    expect(await redis.client.script("EXISTS", TAKE_SCRIPT_SHA)).toEqual([1])
    await redis.client.script("FLUSH")
    expect((await Effect.runPromise(s.take("key", "flushed", perMinute(5)))).remaining).toBe(4)
    expect(await redis.client.script("EXISTS", TAKE_SCRIPT_SHA)).toEqual([1])
  })

  test("keeps API keys and addresses apart", async () => {
    const s = await store()
    await Effect.runPromise(s.take("key", "198.51.100.1", perMinute(1)))
    expect((await Effect.runPromise(s.take("address", "198.51.100.1", perMinute(1)))).allowed).toBe(true)
  })
})

describe("REDIS_URL", () => {
  test("accepts redis:// and rediss:// URLs with a host", () => {
    for (const url of ["redis://localhost", "redis://:secret@10.0.0.5:6380/2", "rediss://cache.example:6379"]) {
      expect(parseRedisUrl(url)).toBeInstanceOf(URL)
    }
  })

  test("refuses anything else, in a sentence that repeats no part of the URL", async () => {
    for (const url of ["localhost:6379", "http://localhost", "redis://", "redis://h/not-a-db", "::"]) {
      expect(typeof parseRedisUrl(url)).toBe("string")
    }
    const exit = await Effect.runPromiseExit(
      Effect.scoped(Layer.build(RedisStore.layer.pipe(Layer.provide(settings({ REDIS_URL: "http://:hunter2@x" })))))
    )
    expect(Exit.isFailure(exit)).toBe(true)
    const message = String(Exit.isFailure(exit) && exit.cause)
    expect(message).toContain("REDIS_URL must start with redis://")
    expect(message).not.toContain("hunter2")
  })

  test("without REDIS_URL the store does not start, and says why", async () => {
    const exit = await Effect.runPromiseExit(
      Effect.scoped(Layer.build(RedisStore.layer.pipe(Layer.provide(settings({})))))
    )
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("REDIS_URL is not set")
  })
})
