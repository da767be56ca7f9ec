// `parse`'s input lines, each bounded so an endless one streams by, and what each is: a user agent, none, or a refusal.
import { Result, Schema, Stream } from "effect"
import { PAYLOAD_PARSE_OPTIONS } from "../Api.ts"
import { InvalidRequest } from "../Errors.ts"
import { fromSchemaIssue } from "../Http/SchemaErrors.ts"
import { ParseRequest } from "../Tools/UserAgent/Schemas.ts"
import { entryOf } from "./CombinedLog.ts"

/** The longest line read whole: a user agent is at most 2,048 characters, an access-log line several header fields. */
export const MAX_LINE = 65_536

// Every line's characters past MAX_LINE + 1 dropped (`length`: the open line's so far). It runs on every character
// read, so it allocates nothing unless a line is cut.
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

/** Lines of `text` as `Stream.splitLines` ends them (`\n`, `\r\n` or `\r`), each at most MAX_LINE + 1 characters. */
export const boundedLines = <E, R>(text: Stream.Stream<string, E, R>): Stream.Stream<string, E, R> =>
  text.pipe(
    Stream.mapAccum(() => 0, clip),
    Stream.splitLines
  )

// with the input in the issues, as the API decodes payloads (Api.ts), so the messages are the same
const decode = Schema.decodeUnknownResult(ParseRequest, PAYLOAD_PARSE_OPTIONS)

const tooLong = new InvalidRequest({
  message: `The line is longer than ${MAX_LINE.toLocaleString("en")} characters, the most read of a line`
})
const notCombined = new InvalidRequest({ message: "The line is not in the combined log format" })

export const readEntry = (raw: string, combined: boolean) => {
  if (raw.length > MAX_LINE) return tooLong
  const entry = combined ? entryOf(raw) : { userAgent: raw, log: undefined }
  if (entry === undefined) return notCombined
  // `-` is the log's mark for a request without the header; an empty one is no user agent either
  if (combined && (entry.userAgent === "-" || entry.userAgent.trim() === "")) return "no user agent" as const
  const result = decode({ operation: "parse", userAgent: entry.userAgent })
  return Result.isSuccess(result) ? entry : fromSchemaIssue(result.failure.issue)
}
