// Lines for standard output that never wait for its reader. A turn's lines leave together, in writes of whole lines
// of at most PIPE_BUF bytes (a pipe takes such a write whole, so workers sharing it never mix within a line), one
// write at a time. Past `limitBytes` waiting, lines are dropped and counted.
import { constants, fstatSync, openSync, write as fsWrite, writeSync } from "node:fs"
import { isatty } from "node:tty"

export const PIPE_BUF = 4096
const LIMIT_BYTES = 1024 * 1024
const RETRY_MAX_MS = 64
const TURN_BYTES = 64 * 1024

/** One write of `data`: calls back with the bytes taken, or the error. */
export type Write = (data: Uint8Array, done: (error: NodeJS.ErrnoException | null, written: number) => void) => void

const atOnce =
  (fd: number): Write =>
  (data, done) => {
    let written: number
    try {
      written = writeSync(fd, data)
    } catch (error) {
      return done(error as NodeJS.ErrnoException, 0)
    }
    done(null, written)
  }

// Writes to `fd` that never wait on the event loop: a pipe reopened without blocking (its own open file, so no other
// process sharing it sees the flag), a file at once, anything else (a socket, a terminal) by a thread.
export const writeTo = (fd: number): Write => {
  try {
    const stat = fstatSync(fd)
    if (stat.isFIFO()) return atOnce(openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK))
    if (stat.isFile() || (stat.isCharacterDevice() && !isatty(fd))) return atOnce(fd)
  } catch {
    // no /proc, or a FIFO with no reader yet: the thread
  }
  return (data, done) => fsWrite(fd, data, (error, written) => done(error, written))
}

export interface SinkOptions {
  readonly limitBytes?: number
  readonly retryMs?: number
  readonly onDrop?: () => void
  /** Once all that waited is written after lines were dropped, with how many were. */
  readonly onResume?: (dropped: number) => void
}

export const makeSink = (write: Write, options: SinkOptions = {}) => {
  const limit = options.limitBytes ?? LIMIT_BYTES
  const retryMs = options.retryMs ?? 1
  // writes waiting, each whole lines of at most PIPE_BUF bytes (or one longer line); the first may be in flight
  const queue: Array<Uint8Array> = []
  // this turn's lines, from `cut` on not yet queued
  let buffer = Buffer.allocUnsafe(TURN_BYTES)
  let used = 0
  let cut = 0
  let waiting = 0
  let writing = false
  let delay = retryMs
  let dropped = 0
  const idle: Array<() => void> = []

  const pump = (): void => {
    const head = queue[0]
    if (writing) return
    // callers hear back after the turn's writing (never inside it, where a new line would land in a queued buffer)
    if (head === undefined) {
      for (const done of idle.splice(0)) queueMicrotask(done)
      return
    }
    writing = true
    write(head, (error, written) => {
      // a full pipe: again later, less often each time; any other error (a closed output) loses the write
      if (error?.code === "EAGAIN") {
        setTimeout(() => {
          writing = false
          pump()
        }, delay)
        delay = Math.min(delay * 2, RETRY_MAX_MS)
        return
      }
      writing = false
      delay = retryMs
      const taken = error === null ? written : head.byteLength
      waiting -= taken
      if (taken < head.byteLength) queue[0] = head.subarray(taken)
      else queue.shift()
      if (dropped > 0 && waiting <= limit / 2) {
        const count = dropped
        dropped = 0
        queueMicrotask(() => options.onResume?.(count))
      }
      pump()
    })
  }

  const flush = (): void => {
    if (used > cut) queue.push(buffer.subarray(cut, used))
    pump()
    // what is still queued keeps this buffer (and a burst's grown one is let go): the next turn takes a new one
    if (queue.length > 0 || buffer.length > TURN_BYTES) buffer = Buffer.allocUnsafe(TURN_BYTES)
    used = 0
    cut = 0
  }

  const line = (text: string): void => {
    // at most 3 bytes a UTF-16 unit, and the newline
    const room = text.length * 3 + 1
    if (waiting > 0 && waiting + room > limit) {
      dropped++
      options.onDrop?.()
      return
    }
    if (used === 0) setImmediate(flush)
    if (used + room > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, used + room))
      buffer.copy(grown, 0, cut, used)
      used -= cut
      cut = 0
      buffer = grown
    }
    const start = used
    used += buffer.write(text, used)
    buffer[used++] = 10
    waiting += used - start
    if (used - cut > PIPE_BUF && start > cut) {
      queue.push(buffer.subarray(cut, start))
      cut = start
    }
  }

  const whenWritten = (done: () => void): void => {
    if (waiting === 0) return done()
    idle.push(done)
    flush()
  }

  return { line, whenWritten }
}
