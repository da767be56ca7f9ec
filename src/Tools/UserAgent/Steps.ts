/** Work done in steps, so that a service can hand the event loop back between them (DeviceBuilds.ts). */

/**
 * A build done in steps: it yields between steps of at most a few milliseconds, so a caller can hand the event loop
 * back between them (DeviceBuilds.ts), or run it to its end at once (`finish`).
 */
export type Steps<A> = Generator<void, A, void>

/** Runs steps to their end at once. */
export const finish = <A>(steps: Steps<A>): A => {
  for (;;) {
    const next = steps.next()
    if (next.done === true) return next.value
  }
}

/**
 * What a lookup that may not load needs loaded first: one object a load, whose `steps` load it (`finish` runs them at
 * once). Thrown by `lookUpDevice`, never by `identifyDevice`.
 */
export class Unbuilt {
  constructor(readonly steps: () => Steps<void>) {}
}
