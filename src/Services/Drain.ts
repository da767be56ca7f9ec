// Requests in flight are their fibers in a FiberSet; a flag marks draining, as a set refuses new fibers only once closed,
// and closing it interrupts the ones running.
import { Context, Duration, Effect, FiberSet, Layer } from "effect"

export class Drain extends Context.Service<
  Drain,
  {
    /** True once `drain` has started: the edge answers new requests 503. */
    readonly isDraining: () => boolean
    /** Counts the calling fiber, the request's, in flight until it ends. */
    readonly track: Effect.Effect<void>
    readonly inFlight: Effect.Effect<number>
    /** Waits for the requests in flight to end, up to the deadline; then interrupts the rest, and says how many. */
    readonly drain: (deadline?: Duration.Input) => Effect.Effect<number>
  }
>()("app/Drain") {
  static readonly layer: Layer.Layer<Drain> = Layer.effect(
    Drain,
    Effect.gen(function* () {
      const requests = yield* FiberSet.make()
      let draining = false
      const inFlight = FiberSet.size(requests)
      return Drain.of({
        isDraining: () => draining,
        // in the step that finds the fiber: FiberSet.add would take a step of its own
        track: Effect.withFiber((fiber) => {
          FiberSet.addUnsafe(requests, fiber)
          return Effect.void
        }),
        inFlight,
        drain: Effect.fn("Drain.drain")(function* (deadline: Duration.Input = "10 seconds") {
          draining = true
          // the deadline holds in a finalizer too (uninterruptible), where shutdown runs this
          const waited = Effect.as(FiberSet.awaitEmpty(requests), 0)
          return yield* Effect.timeoutOrElse(waited, {
            duration: deadline,
            // each interrupted request ends with the edge's 503 before shutdown goes on
            orElse: () => Effect.flatMap(inFlight, (unfinished) => Effect.as(FiberSet.clear(requests), unfinished))
          })
        })
      })
    })
  )
}
