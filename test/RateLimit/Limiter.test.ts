import { describe, expect, test } from "bun:test"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { layerStoreMemory, RateLimiterStore } from "effect/persistence/RateLimiter"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { AppConfig, type InvalidConfig } from "../../src/Config.ts"
import { Metrics } from "../../src/Observability/Metrics.ts"
import { makeMemoryStore } from "../../src/RateLimit/MemoryStore.ts"
import { canonicalAddress } from "../../src/Http/ClientAddress.ts"
import { RateLimiter, RateLimiterLive, type RateLimiterOptions } from "../../src/RateLimit/Limiter.ts"

const defaults: RateLimiterOptions = { perMinute: 100, authFailuresPerMinute: 20 }

const run = <A, E>(
  effect: Effect.Effect<A, E, RateLimiter>,
  options: RateLimiterOptions = defaults,
  store: RateLimiterStore["Service"] = makeMemoryStore()
) => Effect.runPromise(effect.pipe(Effect.provide(Layer.merge(RateLimiter.Test(options, store), TestClock.layer()))))

const advance = (ms: number) => TestClock.adjust(`${ms} millis`)

/** Calls `f` n times and returns the decisions. */
const repeat = <A>(n: number, f: Effect.Effect<A, never, RateLimiter>) => Effect.all(Array.from({ length: n }, () => f))
const take = (key: string) => Effect.flatMap(RateLimiter, (limiter) => limiter.take(key))
/** A failed authentication from `address`, named as the edge names it (ClientAddress.ts). */
const fail = (address: string) =>
  Effect.flatMap(RateLimiter, (limiter) => limiter.recordAuthFailure(canonicalAddress(address) ?? "unknown"))
const allowedCount = (decisions: ReadonlyArray<{ allowed: boolean }>) => decisions.filter((d) => d.allowed).length

describe("RateLimiter.take", () => {
  test("allows a burst of 100, then denies with Retry-After 1", async () => {
    const [burst, next] = await run(Effect.all([repeat(100, take("key_a")), take("key_a")]))
    expect(allowedCount(burst)).toBe(100)
    expect(burst.map((d) => d.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i))
    expect(next).toEqual({ allowed: false, limit: 100, remaining: 0, resetSeconds: 60, retryAfterSeconds: 1 })
  })

  test("reports remaining tokens and seconds until full", async () => {
    const [first, tenth, eleventh, later] = await run(
      Effect.gen(function* () {
        const first = yield* take("k")
        const tenth = (yield* repeat(9, take("k")))[8]!
        const eleventh = yield* take("k")
        yield* advance(1_200) // two tokens back
        return [first, tenth, eleventh, yield* take("k")] as const
      })
    )
    expect(first).toMatchObject({ remaining: 99, resetSeconds: 1 })
    expect(tenth).toMatchObject({ remaining: 90, resetSeconds: 6 })
    expect(eleventh).toMatchObject({ remaining: 89, resetSeconds: 7 }) // 6.6 s rounds up
    expect(later).toMatchObject({ allowed: true, remaining: 90, resetSeconds: 6 })
  })

  test("refills one token every 600 ms", async () => {
    const result = await run(
      Effect.gen(function* () {
        yield* repeat(100, take("k"))
        yield* advance(599)
        const early = yield* take("k")
        yield* advance(1)
        return [early, yield* take("k"), yield* take("k")]
      })
    )
    expect(result.map((d) => d.allowed)).toEqual([false, true, false])
  })

  test("retry-after counts whole seconds until one token is back", async () => {
    const decisions = await run(
      Effect.gen(function* () {
        yield* take("k")
        const now = yield* take("k")
        yield* advance(30_000)
        const half = yield* take("k")
        yield* advance(29_001)
        return [now, half, yield* take("k")]
      }),
      { perMinute: 1, authFailuresPerMinute: 1 }
    )
    expect(decisions.map((d) => d.retryAfterSeconds)).toEqual([60, 30, 1])
  })

  test("sustains 100 a minute", async () => {
    const allowed = await run(
      Effect.gen(function* () {
        let allowed = allowedCount(yield* repeat(150, take("k")))
        for (let step = 0; step < 100; step++) {
          yield* advance(6_000)
          allowed += allowedCount(yield* repeat(15, take("k")))
        }
        return allowed
      })
    )
    expect(allowed).toBe(100 + 1_000) // the burst, then 600 s at one token per 600 ms
  })

  test("keeps one bucket per key", async () => {
    const [a, b] = await run(Effect.all([repeat(101, take("key_a")), take("key_b")]))
    expect(a.at(-1)?.allowed).toBe(false)
    expect(b).toMatchObject({ allowed: true, remaining: 99 })
  })

  test("never allows more than capacity + elapsed x rate in any window", async () => {
    const step = fc.record({ advanceMs: fc.integer({ min: 0, max: 5_000 }), takes: fc.integer({ min: 0, max: 4 }) })
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.array(step, { maxLength: 120 }), async (capacity, steps) => {
        const allowedAt = await run(
          Effect.gen(function* () {
            const times: Array<number> = []
            let now = 0
            for (const { advanceMs, takes } of steps) {
              yield* advance(advanceMs)
              now += advanceMs
              for (const d of yield* repeat(takes, take("k"))) if (d.allowed) times.push(now)
            }
            return times
          }),
          { perMinute: capacity, authFailuresPerMinute: 1 }
        )
        for (let i = 0; i < allowedAt.length; i++) {
          for (let j = i; j < allowedAt.length; j++) {
            const elapsed = allowedAt[j]! - allowedAt[i]!
            expect(j - i + 1).toBeLessThanOrEqual(capacity + (elapsed * capacity) / 60_000)
          }
        }
      }),
      { numRuns: 40 }
    )
  })
})

describe("RateLimiter.recordAuthFailure", () => {
  test("allows 20 failures per address, then denies without taking", async () => {
    const [burst, over, afterRefill, again] = await run(
      Effect.gen(function* () {
        const burst = yield* repeat(20, fail("203.0.113.9"))
        const over = yield* repeat(5, fail("203.0.113.9"))
        yield* advance(3_000) // one failure back at 20 a minute
        return [burst, over, yield* fail("203.0.113.9"), yield* fail("203.0.113.9")] as const
      })
    )
    expect(allowedCount(burst)).toBe(20)
    expect(over.every((d) => !d.allowed && d.limit === 20 && d.retryAfterSeconds === 3)).toBe(true)
    expect([afterRefill.allowed, again.allowed]).toEqual([true, false])
  })

  test("counts IPv4-mapped IPv6 as the IPv4 address, and keeps addresses apart from keys", async () => {
    const [mixed, other, key] = await run(
      Effect.all([
        Effect.all([
          repeat(10, fail("::ffff:198.51.100.7")),
          repeat(10, fail("::FFFF:198.51.100.7")),
          fail("198.51.100.7")
        ]),
        fail("198.51.100.8"),
        take("198.51.100.7")
      ])
    )
    expect(mixed[2].allowed).toBe(false)
    expect(other.allowed).toBe(true)
    expect(key).toMatchObject({ allowed: true, limit: 100 })
  })
})

describe("memory", () => {
  test("more distinct keys than the cap keep each table within the cap; an evicted key starts full", async () => {
    const store = makeMemoryStore(10)
    const sizes: Array<{ keys: number; addresses: number }> = []
    const a = await run(
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        yield* repeat(2, take("a"))
        for (let i = 0; i < 50; i++) (yield* limiter.take(`key_${i}`), sizes.push(store.size()))
        for (let i = 0; i < 50; i++) (yield* limiter.recordAuthFailure(`10.0.0.${i}`), sizes.push(store.size()))
        return yield* take("a")
      }),
      { perMinute: 2, authFailuresPerMinute: 2 },
      store
    )
    expect(Math.max(...sizes.map((s) => s.keys))).toBe(10)
    expect(Math.max(...sizes.map((s) => s.addresses))).toBe(10)
    expect(a).toMatchObject({ allowed: true, remaining: 1 })
  })

  test("addresses cannot evict a key's bucket", async () => {
    const decision = await run(
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        yield* repeat(2, take("a"))
        for (let i = 0; i < 500; i++) yield* limiter.recordAuthFailure(`10.0.${i >> 8}.${i & 255}`)
        return yield* take("a")
      }),
      { perMinute: 2, authFailuresPerMinute: 2 },
      makeMemoryStore(10)
    )
    expect(decision.allowed).toBe(false)
  })

  test("buckets untouched for two windows (full by then) are dropped", async () => {
    const store = makeMemoryStore()
    await run(
      Effect.gen(function* () {
        yield* take("a")
        yield* take("b")
        yield* advance(60_000)
        yield* take("c")
        yield* advance(60_000)
        yield* take("d")
      }),
      defaults,
      store
    )
    expect(store.size().keys).toBe(2) // c, a window old, and d
  })

  test("a bucket that moves to a newer table keeps its exact state (as in Effect's own unbounded store)", async () => {
    const step = fc.record({
      advanceMs: fc.integer({ min: 0, max: 45_000 }),
      key: fc.constantFrom("k", "j"),
      takes: fc.nat(3)
    })
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.array(step, { maxLength: 60 }), async (capacity, steps) => {
        const script = Effect.gen(function* () {
          const out = []
          for (const { advanceMs, key, takes } of steps) {
            yield* advance(advanceMs)
            out.push(...(yield* repeat(takes, take(key))))
          }
          return out
        })
        const options = { perMinute: capacity, authFailuresPerMinute: 1 }
        const unbounded = Effect.runSync(Effect.provide(Effect.service(RateLimiterStore), layerStoreMemory))
        // A cap of 4: a new table whenever both keys are in the current one, and each window, so the keys move often.
        expect(await run(script, options, makeMemoryStore(4))).toEqual(await run(script, options, unbounded))
      }),
      { numRuns: 100 }
    )
  })
})

describe("configuration", () => {
  /** The settings as the service reads them at start, from these environment variables. */
  const settings = (env: Record<string, string>) =>
    AppConfig.layer.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))

  const load = (
    env: Record<string, string>,
    layer: Layer.Layer<RateLimiter, InvalidConfig, AppConfig | Metrics> = RateLimiterLive
  ) =>
    Effect.runPromiseExit(
      Effect.flatMap(RateLimiter, (limiter) => Effect.all([limiter.take("k"), limiter.recordAuthFailure("a")])).pipe(
        Effect.provide(layer.pipe(Layer.provide([settings(env), Metrics.layer])))
      )
    )

  test("defaults to 100 a minute and 20 failures a minute", async () => {
    const exit = await load({})
    expect(Exit.isSuccess(exit) && exit.value.map((d) => d.limit)).toEqual([100, 20])
  })

  test("reads RATE_LIMIT_PER_MINUTE and AUTH_FAILURES_PER_MINUTE", async () => {
    const exit = await load({ RATE_LIMIT_PER_MINUTE: "7", AUTH_FAILURES_PER_MINUTE: " 3 " })
    expect(Exit.isSuccess(exit) && exit.value.map((d) => d.limit)).toEqual([7, 3])
  })

  test("a value below 1 fails the start naming the variable", async () => {
    for (const name of ["RATE_LIMIT_PER_MINUTE", "AUTH_FAILURES_PER_MINUTE"]) {
      const exit = await load({ [name]: "0" })
      expect(Exit.isFailure(exit) && String(exit.cause)).toContain(name)
    }
  })

  test("RateLimiterLive limits in memory when REDIS_URL is not set", async () => {
    const exit = await load({ RATE_LIMIT_PER_MINUTE: "9", AUTH_FAILURES_PER_MINUTE: "4" }, RateLimiterLive)
    expect(Exit.isSuccess(exit) && exit.value.map((d) => d.limit)).toEqual([9, 4])
  })
})
