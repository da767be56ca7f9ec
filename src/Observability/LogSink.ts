/**
 * Standard output for the log lines: the lines of one turn of the event loop written together, in order, after that
 * turn. `console.log` made one system call a line, and was the largest single cost of a request (bench/README.md,
 * issue 22).
 *
 * Each write holds whole lines and at most PIPE_BUF bytes (a longer line alone): a pipe takes such a write whole,
 * so the workers, which share the primary's standard output, never interleave within a line.
 *
 * Writes never hold the service back. A pipe (a shell's `|`, a container's log FIFO) is opened again, without
 * blocking, for this process alone (its own open file, so the flag reaches no other process sharing the pipe): a full
 * pipe refuses a write at once (EAGAIN), and it is tried again 1 ms later, then after twice as long each time
 * it is refused, up to RETRY_MAX_MS (a reader that keeps up but fell behind for a moment is met at once). Any other output (a socket, a file, a
 * terminal) is written off the event loop (`fs.write`, on a thread that may wait), one write at a time. Meanwhile
 * new lines wait in a buffer of at most LIMIT_BYTES; beyond it they are dropped and counted
 * (`log_lines_dropped_total`), and once writing goes on, one warning line says how many. At exit, whatever waits is
 * written before the process ends (on a pipe, for at most EXIT_WAIT_MS).
 */
import { Context, Metric } from "effect"
import { outputOf, type SinkIo, threadIo } from "./LogOutput.ts"

/** The size Linux guarantees a pipe writes atomically. */
export const PIPE_BUF = 4096

/** What may wait for a slow or stopped reader before lines are dropped. */
export const LIMIT_BYTES = 1024 * 1024

const INITIAL_BYTES = 64 * 1024
/** Waits before trying again a descriptor that said EAGAIN (made non-blocking by someone else): no busy spin. */
const RETRY_MS = 1
const RETRY_MAX_MS = 64
/** How long an exit waits for a pipe nobody reads before what is left is lost. */
const EXIT_WAIT_MS = 2_000

const NO_CONTEXT = Context.empty()
const dropped_total = Metric.counter("log_lines_dropped_total", {
  description: "Log lines dropped because standard output was not being read fast enough",
  incremental: true
})
dropped_total.updateUnsafe(0, NO_CONTEXT)

/** The warning written when lines were dropped, in the JSON logger's shape. */
export const droppedLine = (count: number, now: Date = new Date()): string =>
  JSON.stringify({
    message: `${count} log line${count === 1 ? " was" : "s were"} dropped: standard output was not being read fast enough`,
    level: "WARN",
    timestamp: now.toISOString(),
    annotations: { linesDropped: count },
    spans: {},
    fiberId: "#0"
  })

const isAgain = (error: unknown) => (error as { code?: unknown } | null)?.code === "EAGAIN"

/** Lines for `fd`, encoded as they come and written after each turn; `io` does the system calls (tests pass theirs). */
export const makeLineSink = (
  fd: number,
  io: SinkIo = threadIo,
  options: {
    readonly limitBytes?: number
    readonly retryMs?: number
    readonly exitWaitMs?: number
    readonly onDrop?: () => void
  } = {}
) => {
  const limit = options.limitBytes ?? LIMIT_BYTES
  const retryMs = options.retryMs ?? RETRY_MS
  const exitWaitMs = options.exitWaitMs ?? EXIT_WAIT_MS
  let buffer = Buffer.allocUnsafe(INITIAL_BYTES)
  let used = 0
  // where each line of this turn ends in `buffer`, so writes can be cut between lines
  let ends: Array<number> = []
  let scheduled = false
  // writes of earlier turns, each whole lines of at most PIPE_BUF bytes (or one longer line); the first may be in flight
  const queue: Array<Uint8Array> = []
  let queued = 0
  let writing = false
  // refused (EAGAIN): the next try waits for a timer, not for the next line, longer each time
  let refused = false
  let delay = retryMs
  let dropped = 0

  /** This turn's lines as writes, onto the queue. */
  const cut = (): void => {
    if (used === 0) return
    const waiting = buffer.subarray(0, used)
    const lineEnds = ends
    used = 0
    ends = []
    let start = 0
    let end = 0
    for (const lineEnd of lineEnds) {
      if (lineEnd - start > PIPE_BUF && end > start) {
        queue.push(waiting.subarray(start, end))
        start = end
      }
      end = lineEnd
    }
    if (end > start) queue.push(waiting.subarray(start, end))
    queued += end
  }

  const enqueueWarning = (): void => {
    const text = Buffer.from(`${droppedLine(dropped)}\n`)
    dropped = 0
    queue.push(text)
    queued += text.byteLength
  }

  const retry = (): void => {
    refused = false
    pump()
  }

  const pump = (): void => {
    const head = queue[0]
    if (writing || refused || head === undefined) return
    writing = true
    io.write(fd, head, (error, written) => {
      writing = false
      if (error !== null && error !== undefined) {
        // a full pipe: again a little later; anything else (a closed output) drops what waits
        if (isAgain(error)) {
          refused = true
          setTimeout(retry, delay)
          delay = Math.min(delay * 2, RETRY_MAX_MS)
          return
        }
        queue.length = 0
        queued = 0
        return
      }
      delay = retryMs
      queued -= written
      if (written < head.byteLength) queue[0] = head.subarray(written)
      else queue.shift()
      // writing goes on: say once what was lost, when there is room again
      if (dropped > 0 && queued <= limit / 2) enqueueWarning()
      pump()
    })
  }

  const flush = (): void => {
    scheduled = false
    cut()
    pump()
    // the buffer is reused when all of it is written; lines still waiting in it keep it, and the next turn has a new
    // one (so does a burst's grown one)
    if (queue.length > 0 || writing || buffer.length > INITIAL_BYTES) buffer = Buffer.allocUnsafe(INITIAL_BYTES)
  }

  /** Everything waiting, now: at exit, when nothing comes after. */
  const flushSync = (): void => {
    cut()
    if (dropped > 0) enqueueWarning()
    // a write in flight is the writer thread's; the rest follows it
    const rest = writing ? queue.splice(1) : queue.splice(0)
    queued = 0
    const deadline = Date.now() + exitWaitMs
    for (let data of rest) {
      while (data.length > 0) {
        try {
          data = data.subarray(io.writeSync(fd, data))
        } catch (error) {
          if (!isAgain(error) || Date.now() > deadline) return
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, retryMs)
        }
      }
    }
  }

  const line = (text: string): void => {
    // at most 3 bytes for each UTF-16 unit, and the newline
    const room = text.length * 3 + 1
    if (queued + used + room > limit && (queued > 0 || used > 0)) {
      dropped++
      options.onDrop?.()
      return
    }
    if (used + room > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, used + room))
      buffer.copy(grown, 0, 0, used)
      buffer = grown
    }
    used += buffer.write(text, used)
    buffer[used++] = 10
    ends.push(used)
    if (scheduled) return
    scheduled = true
    setImmediate(flush)
  }

  return { line, flush, flushSync }
}

/** Standard output's sink, its drops counted in `log_lines_dropped_total`, written out at exit too. */
const stdout = outputOf(1)
export const stdoutSink = makeLineSink(stdout.fd, stdout.io, {
  onDrop: () => dropped_total.updateUnsafe(1, NO_CONTEXT)
})
process.on("exit", stdoutSink.flushSync)
