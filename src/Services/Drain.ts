/**
 * In-flight request accounting for graceful shutdown. The edge counts requests in and out; on shutdown `drain`
 * flips the service to draining (new requests are answered 503) and waits, up to a deadline, for the count to
 * reach zero, so a request already being served, even one whose body is still arriving, gets its answer.
 */
import { Duration, Effect } from "effect"

export const DRAIN_DEADLINE = Duration.seconds(10)

export class Drain extends Effect.Service<Drain>()("app/Drain", {
  sync: () => {
    let inFlight = 0
    let draining = false
    let idle: (() => void) | undefined
    return {
      /** Plain functions: they run twice on every request, so they cost no Effect allocation. */
      isDraining: (): boolean => draining,
      enter: (): void => {
        inFlight++
      },
      leave: (): void => {
        inFlight--
        if (inFlight === 0 && idle !== undefined) idle()
      },
      inFlight: (): number => inFlight,
      drain: (deadline: Duration.DurationInput = DRAIN_DEADLINE): Effect.Effect<number> =>
        Effect.async<number>((resume) => {
          draining = true
          if (inFlight === 0) return resume(Effect.succeed(0))
          idle = () => resume(Effect.succeed(0))
        }).pipe(
          // Shutdown runs this in a finalizer, where nothing is interruptible: without this, the deadline could not
          // interrupt the wait, and one stuck request would hold the exit until Bun's idle timeout cut it.
          Effect.interruptible,
          Effect.timeoutTo({ duration: deadline, onSuccess: (n) => n, onTimeout: () => inFlight })
        )
    }
  }
}) {}
