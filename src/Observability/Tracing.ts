// Effect.withSpan costs ~1.2 µs a span with References.TracerEnabled off (bench/spanCost.ts): read the switch first.
import { Effect, References } from "effect"

/**
 * `Effect.withSpan(effect, name)` when tracing is on, else `effect` itself. No stack trace: the name says where the
 * span is, and capturing one costs an `Error` a span.
 */
export const withSpan = <A, E, R>(effect: Effect.Effect<A, E, R>, name: string): Effect.Effect<A, E, R> =>
  Effect.flatMap(References.TracerEnabled, (enabled) =>
    enabled ? Effect.withSpan(effect, name, { captureStackTrace: false }) : effect
  )
