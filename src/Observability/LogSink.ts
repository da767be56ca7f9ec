/**
 * Standard output for the log lines: the lines of one turn of the event loop written together, in order, with one
 * system call, at the end of that turn. `console.log` made one call per line, and was the largest single cost of a
 * request (bench/README.md, issue 22). At exit, whatever is waiting is written before the process ends.
 */
import { writeSync } from "node:fs"

const writeAll = (fd: number, data: string | Uint8Array): number =>
  typeof data === "string" ? writeSync(fd, data) : writeSync(fd, data)

/** Lines for `fd`, joined and written once per turn; `write` is the system call (tests pass their own). */
export const makeLineSink = (fd: number, write: (fd: number, data: string | Uint8Array) => number = writeAll) => {
  let pending = ""
  let scheduled = false

  const flush = (): void => {
    scheduled = false
    let data: string | Uint8Array = pending
    pending = ""
    while (data.length > 0) {
      try {
        const written = write(fd, data)
        // a pipe or terminal may take part of it, in bytes: the rest, as bytes (it may start inside a character)
        if (typeof data === "string" && written < Buffer.byteLength(data)) data = Buffer.from(data)
        data = typeof data === "string" ? "" : data.subarray(written)
      } catch (error) {
        // a full non-blocking pipe: try again until the reader makes room; anything else (a closed pipe) drops it
        if ((error as { code?: unknown }).code !== "EAGAIN") return
      }
    }
  }

  const line = (text: string): void => {
    pending += text + "\n"
    if (scheduled) return
    scheduled = true
    setImmediate(flush)
  }

  return { line, flush }
}

/** Standard output's sink, written out at exit too. */
export const stdoutSink = makeLineSink(1)
process.on("exit", stdoutSink.flush)
