/** Long work a slice at a time, so a request arriving meanwhile waits for one slice at most. */
import { Context, Effect, Layer } from "effect"

/** The work in one slice, in milliseconds of `performance.now()`. */
export const SLICE_MS = 2

/** A pause point to `yield*` before costly work, shared by every fiber: past SLICE_MS, each waits a turn. */
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

/** The one pause point of the user-agent service and the device database, chosen where the process is composed. */
export class Slicer extends Context.Service<Slicer, { readonly pause: Effect.Effect<void> }>()("app/Slicer") {
  static readonly layer: Layer.Layer<Slicer> = Layer.sync(Slicer, () => ({ pause: makeSlicer() }))
  /**
   * For a command, which serves no one meanwhile: no pause. Pauses bought nothing there, and raised `parse`'s peak RSS
   * on the realistic log by ~15 MB (bench/README.md).
   */
  static readonly none: Layer.Layer<Slicer> = Layer.succeed(Slicer, { pause: Effect.void })
}
