// `parse --jobs N`: N worker processes (this executable's own `parse`: one user agent a line on its stdin, one JSON
// result a line on its stdout) parse the agents the main process has not kept yet; the main process reads, answers
// and writes every line, in order. A parse costs far more than the rest of a line, and each agent travels once.
import { Data, Effect } from "effect"
import { selfCommand } from "../../Platform/Self.ts"

export class WorkerFailed extends Data.TaggedError("WorkerFailed")<{ readonly message: string }> {}

/** Agents sent in one write, and their answers as they come. */
interface Batch {
  readonly size: number
  readonly lines: Array<string>
  readonly resolve: (lines: ReadonlyArray<string>) => void
  readonly reject: (error: WorkerFailed) => void
}

const spawnWorker = (w: number) => {
  // no cache of its own: each agent reaches one worker once, and the main process keeps the answers
  const proc = Bun.spawn([...selfCommand(), "parse"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
    env: { ...process.env, UA_CACHE_SIZE: "0" }
  })
  const batches: Array<Batch> = []
  let ended = false
  const fail = () => new WorkerFailed({ message: `worker ${w + 1} stopped before its answers were in` })
  const read = async () => {
    let carry = ""
    for await (const text of proc.stdout.pipeThrough(new TextDecoderStream())) {
      const lines = (carry + text).split("\n")
      carry = lines.pop() ?? ""
      // a result is the API's JSON of an agent, never an error: the main process sends only agents the API takes
      for (const line of lines) {
        const batch = batches[0]
        if (batch === undefined || !line.startsWith('{"userAgent":')) throw new Error("an answer that is not a parse")
        batch.lines.push(line)
        if (batch.lines.length < batch.size) continue
        batches.shift()
        batch.resolve(batch.lines)
      }
    }
  }
  read()
    .catch(() => undefined)
    .finally(() => {
      ended = true
      for (const batch of batches.splice(0)) batch.reject(fail())
    })
  /** The worker's JSON lines for `userAgents`, none holding a line break, sent in one write. */
  const parseAll = (userAgents: ReadonlyArray<string>) => {
    if (userAgents.length === 0) return Promise.resolve([])
    if (ended) return Promise.reject(fail())
    const answered = new Promise<ReadonlyArray<string>>((resolve, reject) => {
      batches.push({ size: userAgents.length, lines: [], resolve, reject })
    })
    try {
      proc.stdin.write(`${userAgents.join("\n")}\n`)
      Promise.resolve(proc.stdin.flush()).catch(() => undefined)
    } catch {
      // the worker is gone: its reader's end rejects what waits
    }
    return answered
  }
  return { parseAll, kill: () => proc.kill() }
}

/** Parses by `jobs` workers for the run's scope: a block's agents shared out among them, answered in their order. */
export const makePool = Effect.fnUntraced(function* (jobs: number) {
  const workers = yield* Effect.acquireRelease(
    Effect.sync(() => Array.from({ length: jobs }, (_, w) => spawnWorker(w))),
    (workers) => Effect.sync(() => workers.forEach((worker) => worker.kill()))
  )
  let next = 0
  /** Each agent's answer as the worker's JSON line. */
  return (userAgents: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>, WorkerFailed> =>
    Effect.tryPromise({
      try: async () => {
        // agent i to worker (next + i) mod jobs, so that a block of one new agent each goes to each in turn
        const first = next
        next = (next + userAgents.length) % jobs
        const shares: Array<Array<number>> = workers.map(() => [])
        userAgents.forEach((_, i) => shares[(first + i) % jobs]!.push(i))
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
