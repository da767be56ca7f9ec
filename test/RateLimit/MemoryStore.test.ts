import { describe, expect, test } from "bun:test"
import { Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import { makeMemoryStore } from "../../src/RateLimit/MemoryStore.ts"

const fail = (store: ReturnType<typeof makeMemoryStore>, address: string) =>
  store.tokenBucket({
    key: `address:${address}`,
    tokens: 1,
    limit: 20,
    refillRate: Duration.seconds(3),
    allowOverflow: false
  })

describe("MemoryStore: idle buckets are dropped by time", () => {
  test("a burst's buckets are gone within two and a half minutes with no request after it", async () => {
    const store = makeMemoryStore()
    const sizes = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          yield* store.sweepEvery
          for (let i = 0; i < 1_000; i++) yield* fail(store, `10.0.${i >> 8}.${i & 255}`)
          const sizes = [store.size().addresses]
          for (let s = 0; s < 5; s++) (yield* TestClock.adjust("30 seconds"), sizes.push(store.size().addresses))
          return sizes
        })
      ).pipe(Effect.provide(TestClock.layer()))
    )
    expect(sizes[0]).toBe(1_000)
    expect(sizes.at(-1)).toBe(0)
  })
})
