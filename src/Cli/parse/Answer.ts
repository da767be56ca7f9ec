// What is written for each input line: its JSON line or CSV row, an error, or nothing (skipped, or summarised).
import { Effect } from "effect"
import { InvalidRequest } from "../../Errors.ts"
import type { UserAgentInfo } from "../../Tools/UserAgent/Schemas.ts"
import { readEntry } from "../Lines.ts"
import { body } from "../Report.ts"
import type { makeSummary } from "../summary/Summary.ts"
import { csvError, csvRow } from "./Csv.ts"

export type Format = "json" | "csv"

export interface AnswerOptions {
  readonly combined: boolean
  readonly format: Format
  /** Lines are counted into it, and nothing is written for them. */
  readonly summary: ReturnType<typeof makeSummary> | undefined
}

export interface Counts {
  lines: number
  skipped: number
  failed: number
}

/** `parse` is the UserAgents service's; `counts` grows as lines are answered. */
export const makeAnswer = (parse: (userAgent: string) => Effect.Effect<UserAgentInfo>, options: AnswerOptions) => {
  const { combined, format, summary } = options
  const counts: Counts = { lines: 0, skipped: 0, failed: 0 }

  const one = (file: string | undefined, line: number, raw: string): Effect.Effect<string> => {
    const entry = readEntry(raw, combined)
    if (entry === "no user agent") {
      counts.skipped++
      return Effect.succeed("")
    }
    if (entry instanceof InvalidRequest) {
      counts.failed++
      if (summary !== undefined) return Effect.succeed("")
      const error = body(entry)
      if (format === "csv") return Effect.succeed(csvError(file, line, combined, error))
      return Effect.succeed(`${JSON.stringify({ ...(file === undefined ? { line } : { file, line }), error })}\n`)
    }
    return Effect.map(parse(entry.userAgent), (data) => {
      if (summary !== undefined) {
        summary.add(data, entry.log)
        return ""
      }
      if (format === "csv") return csvRow(file, line, combined, entry.log, data)
      // the API's data as it is, with where the line was and what the log said beside it
      if (entry.log === undefined) return `${JSON.stringify(data)}\n`
      return `${JSON.stringify({ ...(file === undefined ? { line } : { file, line }), log: entry.log, ...data })}\n`
    })
  }

  /** A block of lines, the first numbered `first`: their answers as one text. */
  const block = (file: string | undefined, first: number, lines: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      let out = ""
      for (let i = 0; i < lines.length; i++) out += yield* one(file, first + i, lines[i]!)
      counts.lines += lines.length
      return out
    })

  return { block, counts }
}
