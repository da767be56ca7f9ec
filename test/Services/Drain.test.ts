import { describe, expect, test } from "bun:test"
import { Duration, Effect, Exit, Fiber, Option, TestClock, TestContext } from "effect"
import { Drain } from "../../src/Services/Drain.ts"

const run = <A>(effect: Effect.Effect<A, never, Drain>) =>
  Effect.runPromise(effect.pipe(Effect.provide(Drain.Default), Effect.provide(TestContext.TestContext)))

describe("Drain", () => {
  test("draining answers at once when nothing is in flight, and from then on says it is draining", async () => {
    const [unfinished, draining] = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        return [yield* drain.drain(), drain.isDraining()] as const
      })
    )
    expect(unfinished).toBe(0)
    expect(draining).toBe(true)
  })

  test("it waits for the last in-flight request to leave", async () => {
    const result = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        drain.enter()
        drain.enter()
        const fiber = yield* Effect.fork(drain.drain())
        yield* Effect.yieldNow()
        drain.leave()
        yield* Effect.yieldNow()
        const early = yield* Fiber.poll(fiber)
        drain.leave()
        return [Option.isNone(early), yield* Fiber.join(fiber)] as const
      })
    )
    expect(result).toEqual([true, 0])
  })

  test("the deadline holds inside a finalizer (uninterruptible), where shutdown runs it", async () => {
    const polled = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        drain.enter() // a request that never finishes
        const fiber = yield* Effect.forkDaemon(Effect.uninterruptible(drain.drain(Duration.seconds(10))))
        yield* TestClock.adjust(Duration.seconds(10))
        yield* Effect.yieldNow()
        return yield* Fiber.poll(fiber)
      })
    )
    expect(Option.map(polled, Exit.isSuccess)).toEqual(Option.some(true))
    expect(Option.getOrThrow(polled)).toEqual(Exit.succeed(1))
  })
})
