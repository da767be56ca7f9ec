// `parse --jobs N`: N-1 worker threads (this program's own entry, in a thread: Thread.ts) parse the agents the main
// thread has not kept yet; the main thread, the Nth, reads, answers and writes every line, in order. A parse costs far
// more than the rest of a line, and each agent travels once. Threads rather than processes: `--jobs 2` on the realistic
// log peaked at 401-439 MB against 534-572 for the main process and two worker processes, at the same speed. One
// worker fewer than jobs: on 2 cores one worker beside the main thread is as fast as two, and peaks 20-75 MB lower
// (bench/README.md).
import { Worker } from "node:worker_threads"
import { Data, Effect } from "effect"
import type { Answered, Asked } from "./Thread.ts"

export class WorkerFailed extends Data.TaggedError("WorkerFailed")<{ readonly message: string }> {}

/** A block sent to a worker, waiting for its answers. */
interface Waiting {
  readonly resolve: (answers: ReadonlyArray<string>) => void
  readonly reject: (error: WorkerFailed) => void
}

/** A worker thread running `entry`, and the blocks it has not answered yet. */
const startWorker = (entry: string, w: number) => {
  const worker = new Worker(entry)
  const waiting = new Map<number, Waiting>()
  let next = 0
  let failure: WorkerFailed | undefined
  const fail = (reason: string) => {
    failure ??= new WorkerFailed({ message: `worker ${w + 1} ${reason} before its answers were in` })
    for (const block of waiting.values()) block.reject(failure)
    waiting.clear()
  }
  worker.on("message", ({ id, answers }: Answered) => {
    waiting.get(id)?.resolve(answers)
    waiting.delete(id)
  })
  worker.on("error", (error: Error) => fail(`failed (${error.message})`))
  worker.on("exit", (code) => fail(`stopped (exit status ${code})`))
  /** The worker's JSON of each of `userAgents`, in their order. */
  const parseAll = (userAgents: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
    if (userAgents.length === 0) return Promise.resolve([])
    if (failure !== undefined) return Promise.reject(failure)
    const id = next++
    const answered = new Promise<ReadonlyArray<string>>((resolve, reject) => {
      waiting.set(id, { resolve, reject })
    })
    worker.postMessage({ id, userAgents } satisfies Asked)
    return answered
  }
  const stop = () => {
    worker.removeAllListeners()
    return worker.terminate()
  }
  return { parseAll, stop }
}

/**
 * Parses by `count` worker threads for the run's scope: a block's agents shared out among them, answered in their order.
 * `entry`: the module a worker runs, this program's own unless a test gives another.
 */
export const makePool = Effect.fnUntraced(function* (count: number, entry: string = Bun.main) {
  const workers = yield* Effect.acquireRelease(
    Effect.sync(() => Array.from({ length: count }, (_, w) => startWorker(entry, w))),
    (workers) => Effect.promise(() => Promise.all(workers.map((worker) => worker.stop())))
  )
  let next = 0
  /** Each agent's answer as the worker's JSON line. */
  return (userAgents: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>, WorkerFailed> =>
    Effect.tryPromise({
      try: async () => {
        // agent i to worker (next + i) mod count, so that a block of one new agent each goes to each in turn
        const first = next
        next = (next + userAgents.length) % count
        const shares: Array<Array<number>> = workers.map(() => [])
        userAgents.forEach((_, i) => shares[(first + i) % count]!.push(i))
        const answers = await Promise.all(
          workers.map((worker, w) => worker.parseAll(shares[w]!.map((i) => userAgents[i]!)))
        )
        const inOrder: Array<string> = []
        shares.forEach((indices, w) =>
          indices.forEach((i, k) => {
            inOrder[i] = answers[w]![k]!
          })
        )
        return inOrder
      },
      catch: (error) => (error instanceof WorkerFailed ? error : new WorkerFailed({ message: String(error) }))
    })
})
