/** API_KEYS_FILE read safely: only as a regular file of bounded size, and for a reload only once it is finished. */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs"
import { Clock, Effect, Predicate } from "effect"

/** The largest API_KEYS_FILE read: room for thousands of keys, small enough to hold twice while comparing reads. */
export const MAX_KEYS_FILE_BYTES = 1 << 20
const MIB = `${MAX_KEYS_FILE_BYTES / (1 << 20)} MiB`

export interface Snapshot {
  readonly text: string
  readonly mtimeMs: number
  /** Which file was read (device and inode): a rename over the path gives another. */
  readonly inode: string
}

const KINDS: ReadonlyArray<readonly [(stats: Stats) => boolean, string]> = [
  [(stats) => stats.isDirectory(), "a directory"],
  [(stats) => stats.isFIFO(), "a FIFO (named pipe)"],
  [(stats) => stats.isCharacterDevice() || stats.isBlockDevice(), "a device"],
  [(stats) => stats.isSocket(), "a socket"]
]
const kind = (stats: Stats) => KINDS.find(([is]) => is(stats))?.[1] ?? "another kind of file"

// The text and mtime, or why not: a FIFO or device is refused, never waited on; symlinks followed (Kubernetes secrets).
export const readRegularFile = (path: string): Snapshot | string => {
  const refused = (why: string) => `${path} could not be read: ${why}`
  let fd: number | undefined
  try {
    // Non-blocking: a FIFO without a writer opens at once (and is refused below) instead of waiting for one.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
    const stats = fstatSync(fd)
    if (!stats.isFile()) return refused(`it is ${kind(stats)}, not a regular file`)
    if (stats.size > MAX_KEYS_FILE_BYTES) return refused(`it is larger than ${MIB}, the most a keys file may hold`)
    // One byte past the bound tells a file that grows while read (or says size 0, as /proc's do) from one that fits.
    const buffer = Buffer.allocUnsafe(MAX_KEYS_FILE_BYTES + 1)
    let length = 0
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null)
      if (read === 0) break
      length += read
    }
    if (length > MAX_KEYS_FILE_BYTES) return refused(`reading it gave more than ${MIB}, past its size (still growing?)`)
    // Synchronous, so it works alike in a compiled binary; the open file's time, so a rename cannot mix two files.
    return { text: buffer.toString("utf8", 0, length), mtimeMs: stats.mtimeMs, inode: `${stats.dev}:${stats.ino}` }
  } catch (error) {
    return `${path} could not be read (${Predicate.hasProperty(error, "code") ? String(error.code) : "I/O error"})`
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Two reads SETTLE_MS apart must agree; a last line without a newline is finished once QUIET_MS unmodified. */
export const SETTLE_MS = 100
export const QUIET_MS = 2_000
/** How long a reload waits for a file that keeps changing. */
export const PATIENCE_MS = 10_000

/** Whether `next`, read a settle after `previous`, is a finished file at `now` (epoch ms). */
type Contents = Pick<Snapshot, "text" | "mtimeMs">
export const isFinished = (previous: Contents, next: Contents, now: number): boolean =>
  previous.text === next.text &&
  previous.mtimeMs === next.mtimeMs &&
  (next.text === "" || next.text.endsWith("\n") || now - next.mtimeMs >= QUIET_MS)

/** The file once its writer is done, for SIGHUP's reload: a half-written file would make a key's prefix valid. */
export const readFinishedFile = Effect.fnUntraced(function* (path: string) {
  const started = yield* Clock.currentTimeMillis
  let previous = readRegularFile(path)
  while (true) {
    if (typeof previous === "string") return yield* Effect.fail(previous)
    yield* Effect.sleep(SETTLE_MS)
    const next = readRegularFile(path)
    if (typeof next === "string") return yield* Effect.fail(next)
    const now = yield* Clock.currentTimeMillis
    if (isFinished(previous, next, now)) return next
    if (now - started >= PATIENCE_MS) {
      return yield* Effect.fail(
        `${path} was still being written after ${PATIENCE_MS / 1000} s (changing, or its last line without a ` +
          "newline); write the new file elsewhere and rename it over this one"
      )
    }
    previous = next
  }
})
