/**
 * The device database, loaded once, on the first parse that needs it (~10 ms of work, in steps of at most ~4 ms), a
 * slice at a time (as Traffic.ts builds the generator's pool): that parse waits for it, and every other request goes
 * on meanwhile. So an answer never depends on when it came, and a service that parses nothing never loads it.
 */
import { Deferred, Effect } from "effect"
import { type Steps, Unbuilt } from "./Steps.ts"

/** Runs a load's steps, a slice at a time. */
const runSteps = (steps: Steps<void>, slice: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.gen(function* () {
    while (steps.next().done !== true) yield* slice
  })

/** The loads of one service, and `answer`: what `attempt` gives, once the parts it asks for are loaded. */
export const makeDeviceBuilds = (slice: Effect.Effect<void>) => {
  const builds = new Map<Unbuilt, Deferred.Deferred<void>>()
  const built = (need: Unbuilt): Effect.Effect<void> =>
    Effect.suspend(() => {
      const known = builds.get(need)
      if (known !== undefined) return Deferred.await(known)
      const done = Deferred.makeUnsafe<void>()
      builds.set(need, done)
      const build = runSteps(need.steps(), slice).pipe(Effect.withSpan("UserAgents.buildDeviceDatabase"))
      return Effect.andThen(Effect.forkDetach(Deferred.into(build, done)), Deferred.await(done))
    })
  const answer = <A>(attempt: () => A | Unbuilt): Effect.Effect<A> =>
    Effect.suspend(() => {
      const result = attempt()
      return result instanceof Unbuilt ? Effect.andThen(built(result), answer(attempt)) : Effect.succeed(result)
    })
  return { answer }
}
