import { describe, expect, test } from "bun:test"
import { Duration, Effect, Exit, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Drain } from "../../src/Services/Drain.ts"

const run = <A>(effect: Effect.Effect<A, never, Drain>) =>
  Effect.runPromise(effect.pipe(Effect.provide(Layer.merge(Drain.layer, TestClock.layer()))))

/** The fiber's exit if it has finished, else undefined. */
const poll = <A, E>(fiber: Fiber.Fiber<A, E>) => Effect.sync(() => fiber.pollUnsafe())

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
        const first = drain.enter()
        const second = drain.enter()
        const fiber = yield* Effect.forkChild(drain.drain())
        yield* Effect.yieldNow
        drain.leave(first)
        yield* Effect.yieldNow
        const early = yield* poll(fiber)
        drain.leave(second)
        return [early === undefined, yield* Fiber.join(fiber)] as const
      })
    )
    expect(result).toEqual([true, 0])
  })

  test("the deadline holds inside a finalizer (uninterruptible), where shutdown runs it", async () => {
    const polled = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        drain.enter() // a request that never finishes
        const fiber = yield* Effect.forkDetach(Effect.uninterruptible(drain.drain(Duration.seconds(10))))
        yield* TestClock.adjust(Duration.seconds(10))
        yield* Effect.yieldNow
        return yield* poll(fiber)
      })
    )
    expect(polled !== undefined && Exit.isSuccess(polled)).toBe(true)
    expect(polled).toEqual(Exit.succeed(1))
  })

  test("at the deadline each unfinished request's interrupt is called once; finished ones are not", async () => {
    const calls: Array<string> = []
    const result = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        const done = drain.enter(() => calls.push("done"))
        drain.enter(() => calls.push("stuck-1"))
        drain.enter() // no callback: counted, nothing to call
        drain.enter(() => calls.push("stuck-2"))
        drain.leave(done)
        const fiber = yield* Effect.forkChild(drain.drain(Duration.seconds(5)))
        yield* TestClock.adjust(Duration.seconds(4))
        const before = [...calls]
        yield* TestClock.adjust(Duration.seconds(1))
        return [before, yield* Fiber.join(fiber), drain.inFlight()] as const
      })
    )
    const [before, unfinished, inFlight] = result
    expect(before).toEqual([])
    expect(unfinished).toBe(3)
    expect(calls).toEqual(["stuck-1", "stuck-2"])
    expect(inFlight).toBe(3) // the requests leave when the server has answered them
  })

  test("a throwing interrupt callback does not keep the others from being called", async () => {
    const calls: Array<string> = []
    const unfinished = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        drain.enter(() => {
          throw new Error("boom")
        })
        drain.enter(() => calls.push("second"))
        const fiber = yield* Effect.forkChild(drain.drain(Duration.seconds(1)))
        yield* TestClock.adjust(Duration.seconds(1))
        return yield* Fiber.join(fiber)
      })
    )
    expect(unfinished).toBe(2)
    expect(calls).toEqual(["second"])
  })

  test("leave is idempotent: a second leave of the same request does not count another one out", async () => {
    const result = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        const a = drain.enter()
        drain.enter()
        drain.leave(a)
        drain.leave(a)
        const fiber = yield* Effect.forkChild(drain.drain(Duration.seconds(1)))
        yield* Effect.yieldNow
        const early = yield* poll(fiber)
        yield* TestClock.adjust(Duration.seconds(1))
        return [early === undefined, drain.inFlight(), yield* Fiber.join(fiber)] as const
      })
    )
    expect(result).toEqual([true, 1, 1])
  })
})
