/**
 * Standard output for the log lines: the lines of one turn of the event loop written together, in order, at the end
 * of that turn. `console.log` made one system call a line, and was the largest single cost of a request
 * (bench/README.md, issue 22). At exit, whatever is waiting is written before the process ends.
 *
 * Each write holds whole lines and at most PIPE_BUF bytes (a longer line alone): a pipe takes such a write whole,
 * so the workers, which share the primary's standard output, never interleave within a line.
 */
import { writeSync } from "node:fs"

/** The size Linux guarantees a pipe writes atomically. */
export const PIPE_BUF = 4096

const INITIAL_BYTES = 64 * 1024

/** Lines for `fd`, encoded as they come and written once a turn; `write` is the system call (tests pass their own). */
export const makeLineSink = (
  fd: number,
  write: (fd: number, data: Uint8Array) => number = (fd, data) => writeSync(fd, data)
) => {
  let buffer = Buffer.allocUnsafe(INITIAL_BYTES)
  let used = 0
  // where each waiting line ends in `buffer`, so writes can be cut between lines
  let ends: Array<number> = []
  let scheduled = false

  /** All of `data`: a pipe or terminal may take part of it; a full non-blocking one is tried again. */
  const writeFully = (data: Uint8Array): boolean => {
    while (data.length > 0) {
      try {
        data = data.subarray(write(fd, data))
      } catch (error) {
        // anything but a full pipe (a closed one) drops what waits
        if ((error as { code?: unknown }).code !== "EAGAIN") return false
      }
    }
    return true
  }

  const flush = (): void => {
    scheduled = false
    const waiting = buffer.subarray(0, used)
    const lineEnds = ends
    used = 0
    ends = []
    // the buffer a burst grew is not kept
    if (buffer.length > INITIAL_BYTES) buffer = Buffer.allocUnsafe(INITIAL_BYTES)
    let start = 0
    let end = 0
    for (const lineEnd of lineEnds) {
      if (lineEnd - start > PIPE_BUF && end > start) {
        if (!writeFully(waiting.subarray(start, end))) return
        start = end
      }
      end = lineEnd
    }
    if (end > start) writeFully(waiting.subarray(start, end))
  }

  const line = (text: string): void => {
    // at most 3 bytes for each UTF-16 unit, and the newline
    const room = text.length * 3 + 1
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

  return { line, flush }
}

/** Standard output's sink, written out at exit too. */
export const stdoutSink = makeLineSink(1)
process.on("exit", stdoutSink.flush)
