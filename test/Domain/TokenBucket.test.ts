import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { BucketTable, isFull, levelAt, take, type Bucket } from "../../src/Domain/TokenBucket.ts"

const perMinute = (capacity: number) => ({ capacity, windowMs: 60_000 })
const shape = perMinute(100)

/** Takes `n` tokens at one instant and returns the last decision and bucket. */
const takeMany = (n: number, from: Bucket | undefined, nowMs: number) => {
  let bucket = from
  let decision
  for (let i = 0; i < n; i++) ({ bucket, decision } = take(shape, bucket, nowMs))
  return { bucket, decision: decision! }
}

describe("take", () => {
  test("a missing bucket is a full one", () => {
    const { decision } = take(shape, undefined, 0)
    expect(decision).toEqual({ allowed: true, limit: 100, remaining: 99, resetSeconds: 1, retryAfterSeconds: 0 })
  })

  test("an empty bucket takes nothing and says when one token is back", () => {
    const empty = takeMany(100, undefined, 0)
    expect(empty.decision).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 })
    const denied = take(shape, empty.bucket, 0)
    expect(denied.decision).toEqual({
      allowed: false,
      limit: 100,
      remaining: 0,
      resetSeconds: 60,
      retryAfterSeconds: 1
    })
    expect(denied.bucket.level).toBe(empty.bucket!.level)
  })

  test("refills exactly, whatever the steps (six 100 ms steps make one token)", () => {
    let bucket = takeMany(100, undefined, 0).bucket
    for (let t = 100; t <= 500; t += 100) {
      const step = take(shape, bucket, t)
      expect(step.decision.allowed).toBe(false)
      bucket = step.bucket
    }
    expect(take(shape, bucket, 600).decision).toMatchObject({ allowed: true, remaining: 0 })
  })

  test("retry-after and reset round up to whole seconds", () => {
    const one = perMinute(1)
    const empty = take(one, undefined, 0).bucket
    expect(take(one, empty, 0).decision).toMatchObject({ allowed: false, retryAfterSeconds: 60, resetSeconds: 60 })
    expect(take(one, empty, 30_000).decision).toMatchObject({ retryAfterSeconds: 30, resetSeconds: 30 })
    expect(take(one, empty, 59_001).decision).toMatchObject({ retryAfterSeconds: 1, resetSeconds: 1 })
    expect(take(one, empty, 60_000).decision).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 })
  })

  test("the level never exceeds capacity, and a clock stepping back refills nothing", () => {
    expect(levelAt(shape, { level: 0, updatedAtMs: 0 }, 10 * 60_000)).toBe(100 * 60_000)
    expect(levelAt(shape, { level: 60_000, updatedAtMs: 5_000 }, 1_000)).toBe(60_000)
    expect(isFull(shape, { level: 0, updatedAtMs: 0 }, 59_999)).toBe(false)
    expect(isFull(shape, { level: 0, updatedAtMs: 0 }, 60_000)).toBe(true)
  })

  test("after a denial, a take retryAfterSeconds later is allowed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 120_000 }), (capacity, waitMs) => {
        const s = perMinute(capacity)
        let bucket: Bucket | undefined
        for (let i = 0; i < capacity; i++) bucket = take(s, bucket, 0).bucket
        const later = take(s, bucket, waitMs % 60_000)
        if (later.decision.allowed) return
        expect(later.decision.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        const retryAt = (waitMs % 60_000) + later.decision.retryAfterSeconds * 1000
        expect(take(s, later.bucket, retryAt).decision.allowed).toBe(true)
      })
    )
  })
})

describe("BucketTable", () => {
  test("never allows more than capacity + elapsed x rate in any window", () => {
    const step = fc.record({ advanceMs: fc.integer({ min: 0, max: 5_000 }), takes: fc.integer({ min: 0, max: 4 }) })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.array(step, { maxLength: 300 }), (capacity, steps) => {
        const table = new BucketTable(perMinute(capacity), 10)
        const allowedAt: Array<number> = []
        let now = 0
        for (const { advanceMs, takes } of steps) {
          now += advanceMs
          for (let i = 0; i < takes; i++) if (table.take("k", now).allowed) allowedAt.push(now)
        }
        for (let i = 0; i < allowedAt.length; i++) {
          for (let j = i; j < allowedAt.length; j++) {
            const elapsed = allowedAt[j]! - allowedAt[i]!
            if (j - i + 1 > capacity + (elapsed * capacity) / 60_000) return false
          }
        }
        return true
      }),
      { numRuns: 500 }
    )
  })

  test("never holds more than its cap; the least recently used goes first", () => {
    const table = new BucketTable(perMinute(1), 2)
    table.take("a", 0)
    table.take("b", 0)
    table.take("a", 0) // a is now the most recent
    table.take("c", 0)
    expect(table.size).toBe(2)
    expect(table.take("a", 0).allowed).toBe(false) // kept, still empty
    expect(table.take("b", 0).allowed).toBe(true) // evicted, so full again
    for (let i = 0; i < 1000; i++) table.take(`k${i}`, 0)
    expect(table.size).toBe(2)
  })

  test("full buckets are dropped", () => {
    const table = new BucketTable(perMinute(10), 100)
    table.take("a", 0)
    table.take("b", 1_000)
    expect(table.size).toBe(2)
    table.take("c", 10_000) // a and b are full again by now
    expect(table.size).toBe(1)
  })
})
