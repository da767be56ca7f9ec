// `parse --jobs N`: worker processes (this executable) each answer their own segments of a file, round-robin; the
// main process writes the answers in the file's order, holding at most QUEUE_BYTES of each worker's ahead of it.
import { Data, Effect } from "effect"
import type { SummaryState } from "../summary/Summary.ts"
import type { Counts } from "./Answer.ts"
import { type Frame, readFrames } from "./Frames.ts"
import { CannotRead } from "./Read.ts"
import { encodeSegments, segmentsOf } from "./Segments.ts"

export class WorkerFailed extends Data.TaggedError("WorkerFailed")<{ readonly message: string }> {}

/** A worker's answers held while the main process writes an earlier segment's. */
const QUEUE_BYTES = 8 * 1_048_576

const sizeOf = (frame: Frame) => (frame._tag === "Data" ? frame.bytes.length : 0)

/** A worker's frames, read as they come, until QUEUE_BYTES wait to be taken. */
const makeQueue = (stream: ReadableStream<Uint8Array>) => {
  const items: Array<Frame> = []
  let bytes = 0
  let done = false
  let wake: (() => void) | undefined
  let room: (() => void) | undefined
  const pumped = (async () => {
    try {
      for await (const frame of readFrames(stream)) {
        items.push(frame)
        bytes += sizeOf(frame)
        wake?.()
        while (bytes > QUEUE_BYTES)
          await new Promise<void>((resolve) => {
            room = resolve
          })
      }
    } finally {
      done = true
      wake?.()
    }
  })()
  const take = async (): Promise<Frame | undefined> => {
    while (items.length === 0 && !done)
      await new Promise<void>((resolve) => {
        wake = resolve
      })
    const frame = items.shift()
    if (frame !== undefined) bytes -= sizeOf(frame)
    room?.()
    return frame
  }
  return { take, pumped }
}

// the executable itself: from source, Bun and the script; compiled, the binary alone (as the Supervisor spawns)
const self = () => (Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, Bun.main])

export interface JobsResult {
  readonly counts: ReadonlyArray<Counts>
  readonly summaries: ReadonlyArray<SummaryState>
}

/**
 * `file` answered by `jobs` workers given `args` (the run's own flags); each block of answers goes to `write` in
 * the file's order, `onSegment` hears each segment's size once written. Undefined when the file is one segment.
 */
export const runJobs = Effect.fnUntraced(function* <E, R>(
  file: string,
  jobs: number,
  args: ReadonlyArray<string>,
  write: (bytes: Uint8Array) => Effect.Effect<void, E, R>,
  onSegment: (bytes: number) => Effect.Effect<void, never, R>
) {
  const segments = yield* Effect.try({
    try: () => segmentsOf(file),
    catch: (error) => new CannotRead({ message: error instanceof Error ? error.message : String(error) })
  })
  const n = Math.min(jobs, segments.length)
  if (n <= 1) return undefined
  const workers = yield* Effect.acquireRelease(
    Effect.sync(() =>
      Array.from({ length: n }, (_, w) => {
        const mine = segments.filter((_, s) => s % n === w)
        const command = [...self(), "parse", ...args, "--segments", encodeSegments(mine), file]
        const proc = Bun.spawn(command, { stdin: "ignore", stdout: "pipe", stderr: "inherit" })
        return { proc, queue: makeQueue(proc.stdout) }
      })
    ),
    (workers) => Effect.sync(() => workers.forEach(({ proc }) => proc.kill()))
  )
  const take = (w: number) =>
    Effect.flatMap(
      Effect.promise(() => workers[w]!.queue.take()),
      (frame) =>
        frame === undefined
          ? Effect.fail(new WorkerFailed({ message: `worker ${w + 1} of ${n} ended before its answers did` }))
          : Effect.succeed(frame)
    )
  for (let s = 0; s < segments.length; s++) {
    while (true) {
      const frame = yield* take(s % n)
      if (frame._tag === "Data") yield* write(frame.bytes)
      else if (frame._tag === "End") {
        yield* onSegment(frame.bytes)
        break
      } else return yield* new WorkerFailed({ message: "a worker finished before its last segment" })
    }
  }
  const counts: Array<Counts> = []
  const summaries: Array<SummaryState> = []
  for (let w = 0; w < n; w++) {
    const frame = yield* take(w)
    if (frame._tag !== "Done") return yield* new WorkerFailed({ message: "a worker wrote past its last segment" })
    counts.push(frame.counts)
    if (frame.summary !== undefined) summaries.push(frame.summary)
  }
  return { counts, summaries } satisfies JobsResult
}, Effect.scoped)
