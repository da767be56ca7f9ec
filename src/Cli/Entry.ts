/**
 * What `parse` makes of one line of input: the user agent to parse (with, from an access log, the line's fields), no
 * user agent (a log line without one: skipped), or why it cannot be parsed, as the API would say it.
 */
import { Result, Schema } from "effect"
import { PAYLOAD_PARSE_OPTIONS } from "../Api.ts"
import { InvalidRequest } from "../Errors.ts"
import { fromSchemaIssue } from "../Http/SchemaErrors.ts"
import { ParseRequest } from "../Tools/UserAgent/Schemas.ts"
import { entryOf } from "./CombinedLog.ts"
import { MAX_LINE } from "./Lines.ts"

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
