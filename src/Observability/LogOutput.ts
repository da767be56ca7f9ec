/**
 * How the log sink (LogSink.ts) writes to a descriptor: without blocking where that is safe, else on a thread that
 * may wait for the reader.
 */
import { constants, fstatSync, openSync, write as writeAsync, writeSync } from "node:fs"
import { isatty } from "node:tty"

export interface SinkIo {
  /** One write that never blocks the event loop; calls back (at once, or later) with the bytes taken. */
  readonly write: (fd: number, data: Uint8Array, done: (error: unknown, written: number) => void) => void
  /** One write now (at exit). */
  readonly writeSync: (fd: number, data: Uint8Array) => number
}

/** Writes on a thread of their own, which may wait for the output. */
export const threadIo: SinkIo = {
  write: (fd, data, done) => writeAsync(fd, data, (error, written) => done(error, written)),
  writeSync: (fd, data) => writeSync(fd, data)
}

/** Writes at once: on a non-blocking descriptor, taken or refused (EAGAIN); on a file, taken. */
const nonBlockingIo: SinkIo = {
  write: (fd, data, done) => {
    let written: number
    try {
      written = writeSync(fd, data)
    } catch (error) {
      return done(error, 0)
    }
    done(null, written)
  },
  writeSync: (fd, data) => writeSync(fd, data)
}

/**
 * `fd` as the sink writes it: a pipe opened again without blocking (Linux's /proc names it; a regular file opened
 * again would have an offset of its own, so only a pipe is); a file or /dev/null as it is, at once, as no reader can
 * hold it back; a socket or a terminal (which a reader, or Ctrl-S, can stop) by a thread.
 */
export const outputOf = (fd: number): { readonly fd: number; readonly io: SinkIo } => {
  try {
    const stat = fstatSync(fd)
    if (stat.isFIFO()) {
      return { fd: openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK), io: nonBlockingIo }
    }
    if (stat.isFile() || (stat.isCharacterDevice() && !isatty(fd))) return { fd, io: nonBlockingIo }
  } catch {
    // no /proc (macOS), or no reader yet: the thread waits instead
  }
  return { fd, io: threadIo }
}
