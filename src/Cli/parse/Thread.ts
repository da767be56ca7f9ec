// A `parse --jobs` worker thread (Pool.ts): each message a block's agents, each answered with the API's JSON of it.
import { parentPort } from "node:worker_threads"
import { Effect } from "effect"
import { UserAgents } from "../../Tools/UserAgent/Service.ts"
import { UncachedUserAgentsLive } from "../Report.ts"

/** A block the main thread sends. */
export interface Asked {
  readonly id: number
  readonly userAgents: ReadonlyArray<string>
}

/** Its answer: the API's JSON of each agent, in their order. */
export interface Answered {
  readonly id: number
  readonly answers: ReadonlyArray<string>
}

/** Answers the main thread's blocks until it stops this thread; no cache of its own, as each agent comes once. */
export const answerBlocks = Effect.gen(function* () {
  const port = parentPort
  if (port === null) return yield* Effect.die(new Error("a parse worker runs in a worker thread"))
  const userAgents = yield* UserAgents
  const run = Effect.runPromiseWith(yield* Effect.context<never>())
  port.on("message", ({ id, userAgents: agents }: Asked) =>
    run(userAgents.parseMany(agents)).then((parsed) =>
      port.postMessage({ id, answers: parsed.map((data) => JSON.stringify(data)) } satisfies Answered)
    )
  )
  return yield* Effect.never
}).pipe(Effect.provide(UncachedUserAgentsLive))
