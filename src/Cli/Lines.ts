/**
 * Input text cut into lines of bounded length: a line longer than MAX_LINE is kept only as its first MAX_LINE + 1
 * characters, so an endless line (`/dev/zero`) is skipped as it streams by instead of being held, and still reads
 * as too long. Lines end as `Stream.splitLines` ends them: `\n`, `\r\n` or `\r`.
 */
import { Stream } from "effect"

/** The longest line read whole: a user agent is at most 2,048 characters, an access-log line several header fields. */
export const MAX_LINE = 65_536

/**
 * The text with every line's characters past MAX_LINE + 1 dropped; `length` is how much of the open line is kept.
 * Allocates nothing unless a line is cut: it runs on every character read.
 */
const clip = (length: number, text: string): readonly [number, ReadonlyArray<string>] => {
  let kept = "" // the text so far, once a line has been cut
  let cut = false
  let from = 0
  let lf = text.indexOf("\n")
  let cr = text.indexOf("\r")
  while (true) {
    if (lf !== -1 && lf < from) lf = text.indexOf("\n", from)
    if (cr !== -1 && cr < from) cr = text.indexOf("\r", from)
    const end = Math.min(lf === -1 ? text.length : lf, cr === -1 ? text.length : cr)
    const room = MAX_LINE + 1 - length
    if (end - from > room) {
      if (!cut) kept = text.slice(0, from)
      cut = true
      kept += text.slice(from, from + room)
      length = MAX_LINE + 1
    } else {
      if (cut) kept += text.slice(from, end)
      length += end - from
    }
    if (end === text.length) return [length, text === "" ? [] : [cut ? kept : text]]
    if (cut) kept += text[end]
    length = 0
    from = end + 1
  }
}

/** Lines of `text`, each at most MAX_LINE + 1 characters long (one longer than MAX_LINE was cut). */
export const boundedLines = <E, R>(text: Stream.Stream<string, E, R>): Stream.Stream<string, E, R> =>
  text.pipe(
    Stream.mapAccum(() => 0, clip),
    Stream.splitLines
  )
