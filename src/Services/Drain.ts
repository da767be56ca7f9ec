/**
 * In-flight request accounting for graceful shutdown. The edge registers each request on the way in and removes it
 * on the way out; on shutdown `drain` flips the service to draining (new requests are answered 503) and waits, up
 * to a deadline, for the last one to leave, so a request already being served, even one whose body is still
 * arriving, gets its answer. At the deadline it calls each unfinished request's `interrupt`, so the server can
 * answer those 503 rather than cut them.
 */
import { Context, Duration, Effect, Layer } from "effect"

export const DRAIN_DEADLINE = Duration.seconds(10)

/** One request in flight, as `enter` registered it; give it back to `leave`. */
export interface InFlight {
  readonly interrupt: (() => void) | undefined
}

export class Drain extends Context.Service<
  Drain,
  {
    readonly isDraining: () => boolean
    readonly enter: (interrupt?: () => void) => InFlight
    /** Removes the request; a second `leave` of the same handle does nothing. */
    readonly leave: (request: InFlight) => void
    readonly inFlight: () => number
    /** Waits for every request to leave, up to the deadline; the number still unfinished then. */
    readonly drain: (deadline?: Duration.Input) => Effect.Effect<number>
  }
>()("app/Drain") {
  static readonly layer: Layer.Layer<Drain> = Layer.sync(Drain, () => {
    const requests = new Set<InFlight>()
    let draining = false
    let idle: (() => void) | undefined

    const interruptAll = (): number => {
      const unfinished = [...requests]
      for (const request of unfinished) {
        // One callback's failure must not keep the others' requests from their answer.
        try {
          request.interrupt?.()
        } catch {}
      }
      return unfinished.length
    }

    return Drain.of({
      // Plain functions: they run twice on every request, so they cost no Effect allocation.
      isDraining: () => draining,
      enter: (interrupt) => {
        const request: InFlight = { interrupt }
        requests.add(request)
        return request
      },
      leave: (request) => {
        if (requests.delete(request) && requests.size === 0) idle?.()
      },
      inFlight: () => requests.size,
      drain: Effect.fn("Drain.drain")(function* (deadline: Duration.Input = DRAIN_DEADLINE) {
        return yield* Effect.callback<number>((resume) => {
          draining = true
          if (requests.size === 0) return resume(Effect.succeed(0))
          idle = () => resume(Effect.succeed(0))
          return Effect.sync(() => {
            idle = undefined
          })
        }).pipe(
          // Holds in a finalizer too (uninterruptible), where shutdown runs it: the race's losing wait is cut anyway.
          Effect.timeoutOrElse({ duration: deadline, orElse: () => Effect.sync(interruptAll) })
        )
      })
    })
  })
}
