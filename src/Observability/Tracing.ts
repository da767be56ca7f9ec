/** The caller's id on the request's span, and child spans, only when traces are exported: else they cost nothing. */
import { Effect } from "effect"
import { AppConfig } from "../Config.ts"

export interface Traced {
  readonly enabled: boolean
  readonly span: <A, E, R>(name: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  readonly caller: <A, E, R>(keyId: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

const off: Traced = { enabled: false, span: (_name, effect) => effect, caller: (_keyId, effect) => effect }

const on: Traced = {
  enabled: true,
  // No stack trace is captured: it costs an `Error` per span, and the span's name already says where it is.
  span: (name, effect) => Effect.withSpan(effect, name, { captureStackTrace: false }),
  caller: (keyId, effect) => Effect.andThen(Effect.annotateCurrentSpan("tools_api.key_id", keyId), effect)
}

export const TracedSteps = AppConfig.useSync(({ otlp }): Traced => (otlp?.urls.traces === undefined ? off : on))
