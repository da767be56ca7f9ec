/**
 * A file read only when it is a regular file of bounded size, for API_KEYS_FILE: a FIFO, a device (a symlink to
 * /dev/zero) or a file larger than the bound is refused at once, never waited on or read forever. Symlinks are
 * followed (Kubernetes mounts secrets through them).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs"

/** The largest API_KEYS_FILE read: room for thousands of keys, small enough to hold twice while comparing reads. */
export const MAX_KEYS_FILE_BYTES = 1 << 20

export interface Snapshot {
  readonly text: string
  readonly mtimeMs: number
}

const kind = (stats: Stats) =>
  stats.isDirectory()
    ? "a directory"
    : stats.isFIFO()
      ? "a FIFO (named pipe)"
      : stats.isCharacterDevice() || stats.isBlockDevice()
        ? "a device"
        : stats.isSocket()
          ? "a socket"
          : "another kind of file"

const MIB = `${MAX_KEYS_FILE_BYTES / (1 << 20)} MiB`

/** The file's text and modification time, or the sentence saying why it was not read (it names the path). */
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
    // Synchronous: works the same from source and in a `bun build --compile` binary. The time is the open file's,
    // so a rename between two reads cannot pair one file's text with another's time.
    return { text: buffer.toString("utf8", 0, length), mtimeMs: stats.mtimeMs }
  } catch (error) {
    return `${path} could not be read (${(error as { code?: string }).code ?? "I/O error"})`
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
