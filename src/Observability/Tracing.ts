// Effect.withSpan costs ~1.2 µs a span with References.TracerEnabled off (bench/spanCost.ts): the switch is read once.
import { Effect, References } from "effect"

export type WithSpan = <A, E, R>(effect: Effect.Effect<A, E, R>, name: string) => Effect.Effect<A, E, R>

const untraced: WithSpan = (effect) => effect

const traced = <A, E, R>(effect: Effect.Effect<A, E, R>, name: string): Effect.Effect<A, E, R> =>
  Effect.withSpan(effect, name, { captureStackTrace: false })

/**
 * `Effect.withSpan(effect, name)` where tracing is on (an exporter takes spans), else the effect itself; read where a
 * layer is built. No stack trace: the name says where the span is, and capturing one costs an `Error` a span.
 */
export const withSpan: Effect.Effect<WithSpan> = Effect.map(References.TracerEnabled, (enabled) =>
  enabled ? traced : untraced
)
