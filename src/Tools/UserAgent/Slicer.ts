/** Long work a slice at a time, so a request arriving meanwhile waits for one slice at most. */
import { Context, Effect, Layer } from "effect"

/** The work in one slice, in milliseconds (measured with `performance.now()`: a budget of work, not a time of day). */
export const SLICE_MS = 2

/**
 * A pause point to `yield*` before each piece of long or costly work, shared by every fiber that does such work: once
 * the pieces run since the event loop last had a turn reach SLICE_MS, each waits for the next turn, and the first
 * to resume begins a new slice that the others share. So a hundred costly requests at once hold a health check or a
 * cheap request for one slice, not for all of their work.
 */
export const makeSlicer = (): Effect.Effect<void> => {
  let sliceEnds = 0
  let startedAt = -1
  const pause: Effect.Effect<void> = Effect.suspend(() => {
    const pausedAt = performance.now()
    if (pausedAt < sliceEnds) return Effect.void
    return Effect.flatMap(Effect.yieldNow, () => {
      if (startedAt > pausedAt) return pause
      startedAt = performance.now()
      sliceEnds = startedAt + SLICE_MS
      return Effect.void
    })
  })
  return pause
}

/** The one pause point of the services whose costly work takes turns (the user-agent service, the device database). */
export class Slicer extends Context.Service<Slicer, { readonly pause: Effect.Effect<void> }>()("app/Slicer") {
  static readonly layer: Layer.Layer<Slicer> = Layer.sync(Slicer, () => ({ pause: makeSlicer() }))
}
