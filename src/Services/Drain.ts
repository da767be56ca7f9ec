/** Requests in flight: draining, new ones get 503 and running ones finish, or are interrupted (503) at the deadline. */
import { Context, Duration, Effect, Layer, Result } from "effect"

export type InFlight = { readonly interrupt: (() => void) | undefined }

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
      // one callback's failure must not keep the others' requests from their answer
      for (const request of unfinished) Result.try(() => request.interrupt?.())
      return unfinished.length
    }

    return Drain.of({
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
      drain: Effect.fn("Drain.drain")(function* (deadline: Duration.Input = "10 seconds") {
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
