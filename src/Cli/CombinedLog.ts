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
export const unescapeField = (field: string): string => {
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
export const entryOf = (line: string) => {
  const match = LINE.exec(line)
  const month = MONTHS.indexOf(match?.[3] ?? "") + 1
  if (match === null || month === 0) return undefined
  const [, client, day, , year, clock, offsetHours, offsetMinutes, request, status, , userAgent] = match
  const target = REQUEST.exec(unescapeField(request!))
  const time = `${year}-${String(month).padStart(2, "0")}-${day}T${clock}${offsetHours}:${offsetMinutes}`
  const log = { client: client!, time, method: target?.[1] ?? null, path: target?.[2] ?? null }
  return { log: { ...log, status: status === "-" ? null : Number(status) }, userAgent: unescapeField(userAgent!) }
}
