import { describe, expect, test } from "bun:test"
import { Deferred, Duration, Effect, Exit, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Drain } from "../../src/Services/Drain.ts"

const run = <A>(effect: Effect.Effect<A, never, Drain>) =>
  Effect.runPromise(Effect.scoped(effect.pipe(Effect.provide(Layer.merge(Drain.layer, TestClock.layer())))))

/** The fiber's exit if it has finished, else undefined. */
const poll = <A, E>(fiber: Fiber.Fiber<A, E>) => Effect.sync(() => fiber.pollUnsafe())

/** A request in flight: a tracked fiber that ends when `done` is completed. */
const request = (drain: Drain["Service"], done: Deferred.Deferred<void>) =>
  Effect.forkDetach(Effect.andThen(drain.track, Deferred.await(done)))

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

  test("it waits for the last in-flight request to end", async () => {
    const result = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        const first = yield* Deferred.make<void>()
        const second = yield* Deferred.make<void>()
        yield* request(drain, first)
        yield* request(drain, second)
        yield* Effect.yieldNow
        const fiber = yield* Effect.forkChild(drain.drain())
        yield* Deferred.succeed(first, undefined)
        yield* Effect.yieldNow
        const early = yield* poll(fiber)
        yield* Deferred.succeed(second, undefined)
        return [early === undefined, yield* Fiber.join(fiber)] as const
      })
    )
    expect(result).toEqual([true, 0])
  })

  test("the deadline holds inside a finalizer (uninterruptible), where shutdown runs it", async () => {
    const polled = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        yield* Effect.forkDetach(Effect.andThen(drain.track, Effect.never)) // a request that never finishes
        yield* Effect.yieldNow
        const fiber = yield* Effect.forkDetach(Effect.uninterruptible(drain.drain(Duration.seconds(10))))
        yield* TestClock.adjust(Duration.seconds(10))
        yield* Effect.yieldNow
        return yield* poll(fiber)
      })
    )
    expect(polled).toEqual(Exit.succeed(1))
  })

  test("at the deadline each unfinished request is interrupted, once it is gone it is no longer counted", async () => {
    const result = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        const done = yield* Deferred.make<void>()
        const never = yield* Deferred.make<void>()
        const finished = yield* request(drain, done)
        const stuck = [yield* request(drain, never), yield* request(drain, never)]
        yield* Effect.yieldNow
        yield* Deferred.succeed(done, undefined)
        const fiber = yield* Effect.forkChild(drain.drain(Duration.seconds(5)))
        yield* TestClock.adjust(Duration.seconds(4))
        const before = yield* Effect.forEach(stuck, poll)
        yield* TestClock.adjust(Duration.seconds(1))
        const unfinished = yield* Fiber.join(fiber)
        const after = yield* Effect.forEach(stuck, poll)
        return { before, unfinished, after, finished: yield* poll(finished), inFlight: yield* drain.inFlight }
      })
    )
    expect(result.before).toEqual([undefined, undefined])
    expect(result.unfinished).toBe(2)
    for (const exit of result.after) expect(exit !== undefined && Exit.hasInterrupts(exit)).toBe(true)
    expect(result.finished).toEqual(Exit.void)
    expect(result.inFlight).toBe(0)
  })

  test("a request whose cleanup fails when interrupted does not keep the others from being interrupted", async () => {
    const result = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        const never = yield* Deferred.make<void>()
        yield* Effect.forkDetach(
          Effect.andThen(drain.track, Deferred.await(never)).pipe(Effect.onInterrupt(() => Effect.die("boom")))
        )
        const other = yield* request(drain, never)
        yield* Effect.yieldNow
        const fiber = yield* Effect.forkChild(drain.drain(Duration.seconds(1)))
        yield* TestClock.adjust(Duration.seconds(1))
        return [yield* Fiber.join(fiber), yield* poll(other)] as const
      })
    )
    const [unfinished, other] = result
    expect(unfinished).toBe(2)
    expect(other !== undefined && Exit.hasInterrupts(other)).toBe(true)
  })

  test("a request tracked twice counts once, and leaves once it ends", async () => {
    const result = await run(
      Effect.gen(function* () {
        const drain = yield* Drain
        const done = yield* Deferred.make<void>()
        const never = yield* Deferred.make<void>()
        yield* Effect.forkDetach(drain.track.pipe(Effect.andThen(drain.track), Effect.andThen(Deferred.await(done))))
        yield* request(drain, never)
        yield* Effect.yieldNow
        const counted = yield* drain.inFlight
        yield* Deferred.succeed(done, undefined)
        yield* Effect.yieldNow
        const fiber = yield* Effect.forkChild(drain.drain(Duration.seconds(1)))
        yield* Effect.yieldNow
        const early = yield* poll(fiber)
        yield* TestClock.adjust(Duration.seconds(1))
        return [counted, early === undefined, yield* Fiber.join(fiber)] as const
      })
    )
    expect(result).toEqual([2, true, 1])
  })
})
