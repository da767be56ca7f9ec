/**
 * The user agent of an access-log line in the combined format, nginx's and Apache's default:
 * `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`.
 * Inside a quoted field nginx writes `"` as `\x22` and Apache as `\"`; both escape `\` and bytes outside printable
 * ASCII as `\xHH` (the bytes of UTF-8 text). A missing header is written `-`.
 */

// unrolled (`[^"\\]*` between escapes) so a long field is one scan, not one alternation a character
const QUOTED = String.raw`"([^"\\]*(?:\\.[^"\\]*)*)"`
const LINE = new RegExp(String.raw`^\S+ \S+ \S+ \[[^\]]*\] ${QUOTED} (?:\d{3}|-) (?:\d+|-) ${QUOTED} ${QUOTED}\s*$`)

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** A field as the client sent it: escapes undone, `\xHH` bytes read back as UTF-8. */
export const unescapeField = (field: string): string => {
  if (!field.includes("\\")) return field
  const bytes: Array<number> = []
  for (let i = 0; i < field.length; i++) {
    const char = field[i]!
    const next = field[i + 1]
    if (char === "\\" && next === "x" && /^[0-9a-fA-F]{2}$/.test(field.slice(i + 2, i + 4))) {
      bytes.push(Number.parseInt(field.slice(i + 2, i + 4), 16))
      i += 3
    } else if (char === "\\" && next !== undefined) {
      bytes.push(...encoder.encode(next === "n" ? "\n" : next === "t" ? "\t" : next))
      i += 1
    } else {
      // a lone surrogate half is kept whole with its pair by taking the code point
      const point = field.codePointAt(i)!
      const text = String.fromCodePoint(point)
      bytes.push(...encoder.encode(text))
      i += text.length - 1
    }
  }
  return decoder.decode(Uint8Array.from(bytes))
}

/** The user agent of a combined-format line; `undefined` when the line is not in that format. */
export const userAgentOf = (line: string): { readonly userAgent: string } | undefined => {
  const match = LINE.exec(line)
  if (match === null) return undefined
  return { userAgent: unescapeField(match[3]!) }
}
