// `parse`'s input lines, each bounded so an endless one streams by, and what each is: a user agent, none, or a refusal.
import { Result, Schema, Stream } from "effect"
import { PAYLOAD_PARSE_OPTIONS } from "../Api.ts"
import { InvalidRequest } from "../Errors.ts"
import { fromSchemaIssue } from "../Http/SchemaErrors.ts"
import { ParseRequest } from "../Tools/UserAgent/Schemas.ts"

// An access-log line in nginx's and Apache's default combined format (docs/CLI.md). In a quoted field nginx writes `"`
// as `\x22` and Apache as `\"`; both escape `\` and bytes outside printable ASCII (of UTF-8 text) as `\xHH`.
// unrolled (`[^"\\]*` between escapes) so a long field is one scan, not one alternation a character
const QUOTED = String.raw`"([^"\\]*(?:\\.[^"\\]*)*)"`
// $time_local: 26/Nov/2026:10:00:01 +0000
const TIME = String.raw`\[(\d{2})/(\w{3})/(\d{4}):(\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})\]`
const LINE = new RegExp(String.raw`^(\S+) \S+ \S+ ${TIME} ${QUOTED} (\d{3}|-) (?:\d+|-) ${QUOTED} ${QUOTED}\s*$`)
// "GET /path HTTP/1.1", or HTTP/0.9's "GET /path"; anything else (`-`, a TLS handshake sent to a plain port) is not one
const REQUEST = /^(\S+) (\S+)(?: HTTP\/\S+)?$/
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** A field as the client sent it: escapes undone, `\xHH` bytes read back as UTF-8. */
const unescapeField = (field: string): string => {
  if (!field.includes("\\")) return field
  // odd parts are escapes: a byte, or the character after the backslash
  const parts = field.split(/(\\x[0-9a-fA-F]{2}|\\[^])/)
  const bytes = parts.map((part, i) => {
    if (i % 2 === 0) return encoder.encode(part)
    if (part.length === 4) return Uint8Array.of(Number.parseInt(part.slice(2), 16))
    return encoder.encode(part[1] === "n" ? "\n" : part[1] === "t" ? "\t" : part[1])
  })
  return decoder.decode(Buffer.concat(bytes))
}

/** The line's fields as docs/CLI.md lists them under `log`, and its user agent; undefined when not in the format. */
const entryOf = (line: string) => {
  const match = LINE.exec(line)
  const month = MONTHS.indexOf(match?.[3] ?? "") + 1
  if (match === null || month === 0) return undefined
  const [, client, day, , year, clock, offsetHours, offsetMinutes, request, status, , userAgent] = match
  const target = REQUEST.exec(unescapeField(request!))
  const time = `${year}-${String(month).padStart(2, "0")}-${day}T${clock}${offsetHours}:${offsetMinutes}`
  const log = {
    client: client!,
    time,
    method: target?.[1] ?? null,
    path: target?.[2] ?? null,
    status: status === "-" ? null : Number(status)
  }
  return { log, userAgent: unescapeField(userAgent!) }
}

/** The longest line read whole: a user agent is at most 2,048 characters, an access-log line several header fields. */
export const MAX_LINE = 65_536

/** The line read so far (at most MAX_LINE + 2 characters), and whether the rest of an over-long line is being skipped. */
interface Pending {
  readonly text: string
  readonly skipping: boolean
}

// a `\r` kept at the end may be half of a `\r\n` whose `\n` has not been read yet; every line is asked, and one within
// the bound is told by its length alone
const overLong = (text: string) => text.length > MAX_LINE && text.length - (text.endsWith("\r") ? 1 : 0) > MAX_LINE

// Lines end at `\n` (a `\r` before it dropped); a line is given up as soon as it passes MAX_LINE, cut to MAX_LINE + 1
// characters (so it reads as too long), and the rest of it is skipped until its `\n`.
const split = (pending: Pending, text: string): readonly [Pending, ReadonlyArray<string>] => {
  const lines: Array<string> = []
  let line = pending.text
  let skipping = pending.skipping
  let from = 0
  while (true) {
    const lf = text.indexOf("\n", from)
    const end = lf === -1 ? text.length : lf
    if (!skipping) {
      line += text.slice(from, Math.min(end, from + MAX_LINE + 2 - line.length))
      if (overLong(line)) {
        lines.push(line.slice(0, MAX_LINE + 1))
        skipping = true
      }
    }
    if (lf === -1) return [{ text: skipping ? "" : line, skipping }, lines]
    if (!skipping) lines.push(line.endsWith("\r") ? line.slice(0, -1) : line)
    line = ""
    skipping = false
    from = lf + 1
  }
}

/** Lines of `text` as docs/CLI.md ends them (`\n` or `\r\n`; a lone `\r` is part of its line), each at most MAX_LINE + 1 characters. */
export const boundedLines = <E, R>(text: Stream.Stream<string, E, R>): Stream.Stream<string, E, R> =>
  text.pipe(
    Stream.mapAccum((): Pending => ({ text: "", skipping: false }), split, {
      onHalt: ({ text }) => (text === "" ? [] : [text])
    })
  )

// with the input in the issues, as the API decodes payloads (Api.ts), so the messages are the same
const decode = Schema.decodeUnknownResult(ParseRequest, PAYLOAD_PARSE_OPTIONS)

// made when a line is too long, not at import: the number's first `toLocaleString` loads ICU's data (~1.6 ms)
const tooLong = () =>
  new InvalidRequest({
    message: `The line is longer than ${MAX_LINE.toLocaleString("en")} characters, the most read of a line`
  })
const notCombined = new InvalidRequest({ message: "The line is not in the combined log format" })

/** The line's user agent and log fields, none, or why the line is not read; the agent itself is checked by `refusal`. */
export const readEntry = (raw: string, combined: boolean) => {
  if (raw.length > MAX_LINE) return tooLong()
  const entry = combined ? entryOf(raw) : { userAgent: raw, log: undefined }
  if (entry === undefined) return notCombined
  // `-` is the log's mark for a request without the header; an empty one is no user agent either
  if (combined && (entry.userAgent === "-" || entry.userAgent.trim() === "")) return "no user agent" as const
  return entry
}

/** Why the API would refuse `userAgent` (its schema's message), or undefined when it would parse it. */
export const refusal = (userAgent: string) => {
  const result = decode({ operation: "parse", userAgent })
  return Result.isSuccess(result) ? undefined : fromSchemaIssue(result.failure.issue)
}
