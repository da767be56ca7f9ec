/**
 * The `Redis` service on ioredis (src/RateLimit/Redis.ts) and Effect's Redis store over it, against a real
 * redis-server: the shared bucket decides exactly as the in-memory one, keys expire when full, scripts survive a
 * SCRIPT FLUSH, and the deadline catches a stalled Redis but not a busy process.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { ConfigProvider, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { Redis } from "effect/persistence"
import { layerStoreRedis, RateLimiterStore } from "effect/persistence/RateLimiter"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { AppConfig, parseRedisUrl } from "../../src/Config.ts"
import { RateLimiter, type RateLimiterOptions } from "../../src/RateLimit/Limiter.ts"
import { connect, DEADLINE_MS } from "../../src/RateLimit/Redis.ts"
import { type RedisServer, startRedis } from "../support/Redis.ts"

// Real redis-server and timers on a shared machine: more than the 5 s default, never needed when all is well.
setDefaultTimeout(30_000)

let redis: RedisServer
let runtime: ManagedRuntime.ManagedRuntime<Redis.Redis | RateLimiterStore, unknown>

const layerRedis = Layer.effect(
  Redis.Redis,
  Effect.map(connect, (c) => c.redis)
)
/** The settings as the service reads them at start, from these environment variables. */
const settings = (env: Record<string, string>) =>
  AppConfig.layer.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))

beforeAll(async () => {
  redis = await startRedis()
  const connection = layerRedis.pipe(Layer.provide(settings({ REDIS_URL: redis.url })))
  runtime = ManagedRuntime.make(
    layerStoreRedis({ prefix: "tools-api:ratelimit:" }).pipe(Layer.provideMerge(connection))
  )
})
afterAll(async () => {
  await runtime?.dispose()
  await redis?.stop()
})

/** The app's limiter over Effect's Redis store, on the clock of the fiber that runs it. */
const shared = async (options: RateLimiterOptions) =>
  RateLimiter.Test(options, await runtime.runPromise(Effect.service(RateLimiterStore)))
const take = (key: string) => Effect.flatMap(RateLimiter, (limiter) => limiter.take(key))
const perMinute = (capacity: number) => ({ perMinute: capacity, authFailuresPerMinute: 1 })
let run = 0

describe("Effect's Redis store", () => {
  test("decides exactly as the in-memory store on random sequences, for several keys", async () => {
    const step = fc.record({
      advanceMs: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 120_000 })),
      key: fc.integer({ min: 0, max: 2 }),
      takes: fc.integer({ min: 0, max: 5 })
    })
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.array(step, { maxLength: 80 }), async (capacity, steps) => {
        const prefix = `model-${run++}-`
        const script = Effect.gen(function* () {
          const out = []
          for (const { advanceMs, key, takes } of steps) {
            yield* TestClock.adjust(`${advanceMs} millis`)
            for (let i = 0; i < takes; i++) out.push(yield* take(prefix + key))
          }
          return out
        })
        const on = (limiter: Layer.Layer<RateLimiter>) =>
          Effect.runPromise(script.pipe(Effect.provide(Layer.merge(limiter, TestClock.layer()))))
        const options = perMinute(capacity)
        expect(await on(await shared(options))).toEqual(await on(RateLimiter.Test(options)))
      }),
      { numRuns: 60 }
    )
  })

  test("the key expires when the bucket would be full again", async () => {
    const limiter = await shared(perMinute(100))
    const first = await Effect.runPromise(take("clock").pipe(Effect.provide(limiter)))
    expect(first).toEqual({ allowed: true, limit: 100, remaining: 99, resetSeconds: 1, retryAfterSeconds: 0 })
    const ttl = await redis.client.pttl("tools-api:ratelimit:key:clock")
    expect(ttl).toBeGreaterThan(500)
    expect(ttl).toBeLessThanOrEqual(600) // one token back at 100 a minute: 600 ms
    await Effect.runPromise(take("fast").pipe(Effect.provide(await shared(perMinute(6_000))))) // a token every 10 ms
    await Bun.sleep(60)
    expect(await redis.client.exists("tools-api:ratelimit:key:fast")).toBe(0)
  })

  test("refills as time passes", async () => {
    const limiter = await shared(perMinute(120)) // one token every 500 ms
    const burst = await Effect.runPromise(
      Effect.all(Array.from({ length: 121 }, () => take("refill"))).pipe(Effect.provide(limiter))
    )
    expect(burst.filter((d) => d.allowed).length).toBe(120)
    expect(burst.at(-1)).toMatchObject({ allowed: false, retryAfterSeconds: 1 })
    await Bun.sleep(550)
    expect(await Effect.runPromise(take("refill").pipe(Effect.provide(limiter)))).toMatchObject({
      allowed: true,
      remaining: 0
    })
  })

  test("after SCRIPT FLUSH the script is loaded again (NOSCRIPT)", async () => {
    const limiter = await shared(perMinute(5))
    await Effect.runPromise(take("flushed").pipe(Effect.provide(limiter)))
    await redis.client.script("FLUSH")
    expect((await Effect.runPromise(take("flushed").pipe(Effect.provide(limiter)))).remaining).toBe(3)
  })

  test("keeps API keys and addresses apart", async () => {
    const limiter = await shared({ perMinute: 1, authFailuresPerMinute: 1 })
    const [key, address] = await Effect.runPromise(
      Effect.flatMap(RateLimiter, (l) =>
        Effect.all([l.take("198.51.100.1"), l.recordAuthFailure("198.51.100.1")])
      ).pipe(Effect.provide(limiter))
    )
    expect([key.allowed, address.allowed]).toEqual([true, true])
  })
})

describe("the deadline", () => {
  const ping = () => runtime.runPromiseExit(Effect.flatMap(Effect.service(Redis.Redis), (r) => r.send("PING")))

  test("does not trip on a busy process whose Redis answered in time", async () => {
    for (let i = 0; i < 3; i++) {
      const answer = ping()
      const until = performance.now() + DEADLINE_MS * 2
      while (performance.now() < until); // the event loop is busy past the deadline; Redis has answered long since
      expect(Exit.isSuccess(await answer)).toBe(true)
    }
  })

  test("trips on a stalled Redis (SIGSTOP) at about the deadline", async () => {
    redis.pause()
    try {
      const started = performance.now()
      const exit = await ping()
      expect(Exit.isFailure(exit) && String(exit.cause)).toContain(`no answer for ${DEADLINE_MS} ms`)
      expect(performance.now() - started).toBeLessThan(DEADLINE_MS + 200)
    } finally {
      redis.resume()
    }
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
      Effect.scoped(Layer.build(layerRedis.pipe(Layer.provide(settings({ REDIS_URL: "http://:hunter2@x" })))))
    )
    expect(Exit.isFailure(exit)).toBe(true)
    const message = String(Exit.isFailure(exit) && exit.cause)
    expect(message).toContain("REDIS_URL must start with redis://")
    expect(message).not.toContain("hunter2")
  })

  test("without REDIS_URL the connection does not start, and says why", async () => {
    const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(layerRedis.pipe(Layer.provide(settings({}))))))
    expect(Exit.isFailure(exit) && String(exit.cause)).toContain("REDIS_URL is not set")
  })
})
