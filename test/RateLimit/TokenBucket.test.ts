/**
 * The token bucket's decisions, as the headers give them, from Effect's token-bucket RateLimiter over the bounded
 * memory store, on TestClock time: exact refills, whole seconds rounded up, and never more than the rate allows.
 */
import { describe, expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { type RateLimitDecision, RateLimiter } from "../../src/RateLimit/Limiter.ts"

/** Runs `steps` (milliseconds to wait, then takes) against a fresh limiter of `capacity` a minute. */
const decisions = (capacity: number, steps: ReadonlyArray<readonly [waitMs: number, takes: number]>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      const out: Array<{ at: number; decision: RateLimitDecision }> = []
      let at = 0
      for (const [waitMs, takes] of steps) {
        yield* TestClock.adjust(`${waitMs} millis`)
        at += waitMs
        for (let i = 0; i < takes; i++) out.push({ at, decision: yield* limiter.take("k") })
      }
      return out
    }).pipe(
      Effect.provide(
        Layer.merge(RateLimiter.Test({ perMinute: capacity, authFailuresPerMinute: 1 }), TestClock.layer())
      )
    )
  )
const last = async (capacity: number, steps: ReadonlyArray<readonly [number, number]>) =>
  (await decisions(capacity, steps)).at(-1)!.decision

describe("take", () => {
  test("a new bucket is a full one", async () => {
    expect(await last(100, [[0, 1]])).toEqual({
      allowed: true,
      limit: 100,
      remaining: 99,
      resetSeconds: 1,
      retryAfterSeconds: 0
    })
  })

  test("an empty bucket takes nothing and says when one token is back", async () => {
    const all = await decisions(100, [[0, 102]])
    expect(all[99]!.decision).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 })
    const denied = { allowed: false, limit: 100, remaining: 0, resetSeconds: 60, retryAfterSeconds: 1 }
    expect(all.slice(100).map((d) => d.decision)).toEqual([denied, denied])
  })

  test("refills exactly, whatever the steps (six 100 ms steps make one token)", async () => {
    const all = await decisions(100, [[0, 100], ...Array.from({ length: 5 }, () => [100, 1] as const), [100, 1]])
    expect(all.slice(100, 105).every((d) => !d.decision.allowed)).toBe(true)
    expect(all.at(-1)!.decision).toMatchObject({ allowed: true, remaining: 0 })
  })

  test("retry-after and reset round up to whole seconds", async () => {
    expect(await last(1, [[0, 2]])).toMatchObject({ allowed: false, retryAfterSeconds: 60, resetSeconds: 60 })
    expect(
      await last(1, [
        [0, 1],
        [30_000, 1]
      ])
    ).toMatchObject({ retryAfterSeconds: 30, resetSeconds: 30 })
    expect(
      await last(1, [
        [0, 1],
        [59_001, 1]
      ])
    ).toMatchObject({ retryAfterSeconds: 1, resetSeconds: 1 })
    expect(
      await last(1, [
        [0, 1],
        [60_000, 1]
      ])
    ).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 })
  })

  test("a capacity that does not divide a minute still gives whole, exact seconds", async () => {
    expect(await last(7, [[0, 7]])).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 })
    expect(await last(7, [[0, 8]])).toMatchObject({ allowed: false, retryAfterSeconds: 9, resetSeconds: 60 })
  })

  test("after a denial, a take retryAfterSeconds later is allowed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 59_999 }),
        async (capacity, waitMs) => {
          const later = await last(capacity, [
            [0, capacity],
            [waitMs, 1]
          ])
          if (later.allowed) return
          expect(later.retryAfterSeconds).toBeGreaterThanOrEqual(1)
          const retry = await last(capacity, [
            [0, capacity],
            [waitMs, 1],
            [later.retryAfterSeconds * 1000, 1]
          ])
          expect(retry.allowed).toBe(true)
        }
      ),
      { numRuns: 60 }
    )
  })

  test("never allows more than capacity + elapsed x rate in any window", async () => {
    const step = fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 4 }))
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.array(step, { maxLength: 300 }), async (capacity, steps) => {
        const allowedAt = (await decisions(capacity, steps)).filter((d) => d.decision.allowed).map((d) => d.at)
        for (let i = 0; i < allowedAt.length; i++) {
          for (let j = i; j < allowedAt.length; j++) {
            const elapsed = allowedAt[j]! - allowedAt[i]!
            expect(j - i + 1).toBeLessThanOrEqual(capacity + (elapsed * capacity) / 60_000)
          }
        }
      }),
      { numRuns: 200 }
    )
  })
})
