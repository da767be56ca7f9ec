// `parse --jobs`: a file cut into segments at line breaks, each with the number of its first line, so a worker can
// answer its segments alone and the answers still read as one run's (`line` counts from the file's first line).
import { closeSync, openSync, readSync } from "node:fs"

export interface Segment {
  readonly start: number
  /** Exclusive: the byte after the segment's last line break (or the file's end). */
  readonly end: number
  readonly line: number
}

/** A segment's size: big enough that a worker's start-up and the framing cost nothing, small enough to interleave. */
export const SEGMENT_BYTES = 1_048_576

/** The segments of `path`, read once: every line break counted, a cut at the first one after each SEGMENT_BYTES. */
export const segmentsOf = (path: string, size = SEGMENT_BYTES): Array<Segment> => {
  const fd = openSync(path, "r")
  try {
    const buffer = Buffer.allocUnsafe(1_048_576)
    const segments: Array<Segment> = []
    let start = 0
    let line = 1
    let lines = 0 // line breaks in the current segment
    let position = 0
    while (true) {
      const read = readSync(fd, buffer, 0, buffer.length, position)
      if (read === 0) break
      let at = buffer.indexOf(10)
      while (at !== -1 && at < read) {
        lines++
        if (position + at + 1 - start >= size) {
          segments.push({ start, end: position + at + 1, line })
          start = position + at + 1
          line += lines
          lines = 0
        }
        at = buffer.indexOf(10, at + 1)
      }
      position += read
    }
    if (position > start) segments.push({ start, end: position, line })
    return segments
  } finally {
    closeSync(fd)
  }
}

/** A worker's segments on its command line: `start-end@line,…`. */
export const encodeSegments = (segments: ReadonlyArray<Segment>) =>
  segments.map(({ start, end, line }) => `${start}-${end}@${line}`).join(",")

export const decodeSegments = (text: string): Array<Segment> =>
  text.split(",").map((part) => {
    const [range = "", line = ""] = part.split("@")
    const [start = "", end = ""] = range.split("-")
    return { start: Number(start), end: Number(end), line: Number(line) }
  })
