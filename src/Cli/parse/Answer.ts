// What is written for each input line: its JSON line or CSV row, an error, or nothing (skipped, or summarised).
// Each distinct agent's share of its lines (its JSON, its CSV columns, what a summary counts) is made once and kept
// (Known.ts), so a line whose agent was seen costs its log fields alone.
import { Effect } from "effect"
import { InvalidRequest } from "../../Errors.ts"
import type { UserAgentInfo } from "../../Tools/UserAgent/Schemas.ts"
import { detached } from "../Detached.ts"
import { readEntry, refusal } from "../Lines.ts"
import { body } from "../Report.ts"
import { type Counted, countedOf, type makeSummary } from "../summary/Summary.ts"
import { csvData, csvError, csvRow, type LogEntry } from "./Csv.ts"
import { makeKnown } from "./Known.ts"

export type Format = "json" | "csv"

export interface AnswerOptions {
  readonly combined: boolean
  readonly format: Format
  /** Lines are counted into it, and nothing is written for them. */
  readonly summary: ReturnType<typeof makeSummary> | undefined
  /** Distinct agents whose share is kept (UA_CACHE_SIZE); 0 keeps none. */
  readonly known: number
}

export interface Counts {
  lines: number
  skipped: number
  failed: number
}

/** How a format makes an agent's share once, and a line from it and the line's own fields. */
interface Shape<Part> {
  readonly of: (data: UserAgentInfo) => Part
  readonly line: (file: string | undefined, line: number, log: LogEntry | undefined, part: Part) => string
  /** Characters kept for the part. */
  readonly size: (part: Part) => number
}

// the API's data as it is, with where the line was and what the log said beside it: `{"file":…,"line":…,"log":…,` and
// the data's own JSON from its first key, as JSON.stringify writes the spread object
const json: Shape<string> = {
  of: (data) => JSON.stringify(data).slice(1),
  line: (file, line, log, part) =>
    log === undefined
      ? `{${part}\n`
      : `{${file === undefined ? "" : `"file":${JSON.stringify(file)},`}"line":${line},"log":${JSON.stringify(log)},${part}\n`,
  size: (part) => part.length
}

const csv = (combined: boolean): Shape<string> => ({
  of: csvData,
  line: (file, line, log, part) => csvRow(file, line, combined, log, part),
  size: (part) => part.length
})

const summarised = (summary: ReturnType<typeof makeSummary>): Shape<Counted> => ({
  of: countedOf,
  line: (_file, _line, log, part) => {
    summary.add(part, log)
    return ""
  },
  // the values are the parse's own strings, shared with other entries
  size: (part) => 8 * (2 + part.values.length)
})

/** `parse` is the UserAgents service's; `counts` grows as lines are answered. */
export const makeAnswer = (parse: (userAgent: string) => Effect.Effect<UserAgentInfo>, options: AnswerOptions) => {
  const { combined, format, summary } = options
  const counts: Counts = { lines: 0, skipped: 0, failed: 0 }

  const failure = (file: string | undefined, line: number, refused: InvalidRequest) => {
    counts.failed++
    if (summary !== undefined) return ""
    const error = body(refused)
    if (format === "csv") return csvError(file, line, combined, error)
    return `${JSON.stringify({ ...(file === undefined ? { line } : { file, line }), error })}\n`
  }

  const make = <Part extends {}>(shape: Shape<Part>) => {
    const known = makeKnown(options.known, shape.size)
    /** A block of lines, the first numbered `first`: their answers as one text. */
    return (file: string | undefined, first: number, lines: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        let out = ""
        for (let i = 0; i < lines.length; i++) {
          const entry = readEntry(lines[i]!, combined)
          if (entry === "no user agent") counts.skipped++
          else if (entry instanceof InvalidRequest) out += failure(file, first + i, entry)
          else {
            let part = known?.get(entry.userAgent)
            if (part === undefined) {
              // an agent is kept only once it passed the API's check, so a kept one needs none
              const refused = refusal(entry.userAgent)
              if (refused !== undefined) {
                out += failure(file, first + i, refused)
                continue
              }
              const userAgent = detached(entry.userAgent)
              part = shape.of(yield* parse(userAgent))
              known?.set(userAgent, part)
            }
            out += shape.line(file, first + i, entry.log, part)
          }
        }
        counts.lines += lines.length
        return out
      })
  }

  const block = summary !== undefined ? make(summarised(summary)) : format === "csv" ? make(csv(combined)) : make(json)
  return { block, counts }
}
