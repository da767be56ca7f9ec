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
import { makeInterned } from "./Interned.ts"
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

/** A parse: the service's data, or a worker's answer as the JSON the API writes of it (Pool.ts). */
export type Parsed = UserAgentInfo | string

// a worker's line is this program's own JSON of the API's data (Pool.ts checks it is a parse): read as it is, since
// decoding it by its Schema cost 14-19 µs an agent against JSON.parse's 4, in the one process that reads every line
const infoOf = (parsed: Parsed): UserAgentInfo => (typeof parsed === "string" ? JSON.parse(parsed) : parsed)

/** How a format makes an agent's share once, and a line from it and the line's own fields. */
interface Shape<Part> {
  readonly of: (parsed: Parsed, userAgent: string) => Part
  /** The share as a block's lines of `userAgent` write it: made once an agent a block, not kept. */
  readonly inBlock: (part: Part, userAgent: string) => Part
  readonly line: (file: string | undefined, line: number, log: LogEntry | undefined, part: Part) => string
  /** Characters kept for the part. */
  readonly size: (part: Part) => number
}

const AGENT_KEY = '"userAgent":'

// the API's data as it is, with where the line was and what the log said beside it: `{"file":…,"line":…,"log":…,` and
// the data's own JSON from its first key, as JSON.stringify writes the spread object. Kept from its second key on (a
// block puts its agent back, once), and one copy for agents whose data is the same (Interned.ts).
const json = (interned: (text: string) => string): Shape<string> => ({
  of: (parsed, userAgent) => {
    const data = typeof parsed === "string" ? parsed : JSON.stringify(parsed)
    const head = `{${AGENT_KEY}${JSON.stringify(userAgent)},`
    // whole, were the data to name another agent than its line's
    return interned(data.startsWith(head) ? data.slice(head.length) : data.slice(1))
  },
  inBlock: (part, userAgent) =>
    part.startsWith(AGENT_KEY) ? part : `${AGENT_KEY}${JSON.stringify(userAgent)},${part}`,
  line: (file, line, log, data) =>
    log === undefined
      ? `{${data}\n`
      : `{${file === undefined ? "" : `"file":${JSON.stringify(file)},`}"line":${line},"log":${JSON.stringify(log)},${data}\n`,
  size: (part) => part.length
})

const csv = (combined: boolean): Shape<string> => ({
  of: (parsed) => csvData(infoOf(parsed)),
  inBlock: (part) => part,
  line: (file, line, log, part) => csvRow(file, line, combined, log, part),
  size: (part) => part.length
})

const summarised = (summary: ReturnType<typeof makeSummary>): Shape<Counted> => ({
  of: (parsed) => countedOf(infoOf(parsed)),
  inBlock: (part) => part,
  line: (_file, _line, log, part) => {
    summary.add(part, log)
    return ""
  },
  // the values are the parse's own strings, shared with other entries
  size: (part) => 8 * (2 + part.values.length)
})

/** `parseAll` answers agents in their order: the UserAgents service, or the workers (Pool.ts); `counts` grows as lines are answered. */
export const makeAnswer = <E>(
  parseAll: (userAgents: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Parsed>, E>,
  options: AnswerOptions
) => {
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
    /**
     * A block of lines, the first numbered `first`: its new agents parsed, then what answers its lines as one text.
     * Blocks are parsed several at once and end in any order; each is answered in the input's order (Read.ts), so a
     * summary counts its lines in that order, as one process does.
     */
    return (file: string | undefined, first: number, lines: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const entries = lines.map((raw) => readEntry(raw, combined))
        // each agent of the block: its kept share, or the API's refusal; those new to it parsed all at once
        const parts = new Map<string, Part | InvalidRequest>()
        const fresh = new Set<string>()
        for (const entry of entries) {
          if (entry === "no user agent" || entry instanceof InvalidRequest) continue
          const { userAgent } = entry
          if (parts.has(userAgent) || fresh.has(userAgent)) continue
          // an agent is kept only once it passed the API's check, so a kept one needs none
          const kept = known?.get(userAgent)
          if (kept !== undefined) parts.set(userAgent, shape.inBlock(kept, userAgent))
          else {
            const refused = refusal(userAgent)
            if (refused !== undefined) parts.set(userAgent, refused)
            else fresh.add(userAgent)
          }
        }
        const agents = [...fresh]
        const copies = agents.map(detached)
        const parsed = yield* parseAll(copies)
        parsed.forEach((data, i) => {
          const part = shape.of(data, copies[i]!)
          parts.set(agents[i]!, shape.inBlock(part, copies[i]!))
          known?.set(copies[i]!, part)
        })
        return () => {
          // joined once: a text grown line by line is a rope the write then flattens
          const out: Array<string> = []
          entries.forEach((entry, i) => {
            if (entry === "no user agent") counts.skipped++
            else if (entry instanceof InvalidRequest) out.push(failure(file, first + i, entry))
            else {
              const part = parts.get(entry.userAgent)!
              out.push(
                part instanceof InvalidRequest
                  ? failure(file, first + i, part)
                  : shape.line(file, first + i, entry.log, part)
              )
            }
          })
          counts.lines += lines.length
          return out.join("")
        }
      })
  }

  const block =
    summary !== undefined
      ? make(summarised(summary))
      : format === "csv"
        ? make(csv(combined))
        : make(json(makeInterned(options.known)))
  return { block, counts }
}
