// `tools-api parse`: each chunk's answers are written before the next is read, so memory stays flat.
import { Clock, Data, Effect, FileSystem, Option, Stdio, Stream } from "effect"
import { Argument, CliError, Command, Flag } from "effect/cli"
import { InvalidRequest } from "../Errors.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"
import { boundedLines, readEntry } from "./Lines.ts"
import { body, Refused, report, stderr, stdout, UserAgentsLive } from "./Report.ts"
import { makeSummary } from "./summary/Summary.ts"
import { number, table } from "./summary/Table.ts"

class CannotRead extends Data.TaggedError("CannotRead")<{ readonly message: string }> {}

const toggle = (name: string, description: string) =>
  Flag.Boolean(name).pipe(Flag.withDescription(description), Flag.withDefault(false))

const flags = {
  files: Argument.String("FILE").pipe(
    Argument.withDescription("Files to read, one user agent a line; stdin without any (or for -)"),
    Argument.variadic()
  ),
  log: Flag.Literals("log", ["combined"]).pipe(
    Flag.withDescription(
      "Read access-log lines (nginx's and Apache's default combined format): each result carries the line's " +
        "number and fields; a line without a user agent is skipped and counted"
    ),
    Flag.optional
  ),
  summary: toggle(
    "summary",
    "Instead of a line a result, counts at the end, humans and bots apart: versions, devices, bots, statuses, paths, time"
  ),
  json: toggle("json", "With --summary: the summary as one JSON object")
}

const run = Effect.fn("Cli.parse")(
  function* (options: Command.Command.Config.Infer<typeof flags>) {
    if (options.json && !options.summary) {
      const message = "--json is the summary's format: give it with --summary (the lines are JSON already)"
      const errors = [new CliError.ValidationError({ message })]
      return yield* new CliError.ShowHelp({ commandPath: ["tools-api", "parse"], errors })
    }
    const userAgents = yield* UserAgents
    const fs = yield* FileSystem.FileSystem
    const stdio = yield* Stdio.Stdio
    const combined = Option.isSome(options.log)
    const summary = options.summary ? makeSummary() : undefined
    const showProgress = yield* stdio.stderrIsTerminal
    const started = yield* Clock.currentTimeMillis
    let [lines, failed, skipped, unreadable, shownAt] = [0, 0, 0, 0, started]

    /** One line's JSON answer with its line break; "" when nothing is written for it (skipped, or summarised). */
    const answer = (file: string | undefined, line: number, raw: string): Effect.Effect<string> => {
      const where = file === undefined ? { line } : { file, line }
      const entry = readEntry(raw, combined)
      if (entry === "no user agent") {
        skipped++
        return Effect.succeed("")
      }
      if (entry instanceof InvalidRequest) {
        failed++
        return Effect.succeed(summary !== undefined ? "" : `${JSON.stringify({ ...where, error: body(entry) })}\n`)
      }
      return Effect.map(userAgents.parse(entry.userAgent), (data) => {
        if (summary !== undefined) {
          summary.add(data, entry.log)
          return ""
        }
        // the API's data as it is, with where the line was and what the log said beside it
        return `${JSON.stringify(entry.log === undefined ? data : { ...where, log: entry.log, ...data })}\n`
      })
    }

    const counts = () =>
      `${number(lines)} lines, ${combined ? `${number(skipped)} skipped, ` : ""}${number(failed)} failed`
    const progress = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (now - shownAt < 1_000) return
      shownAt = now
      const rate = Math.round((lines * 1_000) / Math.max(1, now - started))
      yield* stderr(`\r\x1b[K${counts()}, ${number(rate)} lines/s`)
    })

    /** `file` undefined: stdin. One that cannot be read is told on stderr and the next is read. */
    const one = (file: string | undefined) => {
      let line = 0
      return (file === undefined ? stdio.stdin : fs.stream(file)).pipe(
        Stream.mapError((error) => new CannotRead({ message: error.reason.description ?? String(error) })),
        Stream.decodeText(),
        boundedLines,
        Stream.mapArrayEffect((chunk) =>
          Effect.gen(function* () {
            let out = ""
            for (const raw of chunk) out += yield* answer(file, ++line, raw)
            lines += chunk.length
            if (showProgress) yield* progress
            return [out] as const
          })
        ),
        Stream.run(stdio.stdout()),
        Effect.catchTag("CannotRead", (error) => {
          unreadable++
          return stderr(`tools-api parse: cannot read ${file ?? "stdin"}: ${error.message}\n`)
        })
      )
    }
    for (const file of options.files.length === 0 ? ["-"] : options.files) yield* one(file === "-" ? undefined : file)

    if (showProgress) yield* stderr(`\r\x1b[K${counts()}\n`)
    if (summary !== undefined) {
      const tally = summary.json({ lines, skipped, failed })
      yield* stdout(options.json ? `${JSON.stringify(tally)}\n` : table(tally))
    } else if (!showProgress && skipped > 0) {
      yield* stderr(`tools-api parse: ${skipped} of ${lines} lines skipped: no user agent\n`)
    }
    // exit status 1, once every other line has its answer
    if (failed > 0 || unreadable > 0) {
      if (!showProgress && failed > 0) yield* stderr(`tools-api parse: ${failed} of ${lines} lines failed\n`)
      return yield* new Refused()
    }
  },
  Effect.provide(UserAgentsLive),
  report
)

export const ParseCommand = Command.make("parse", flags, run).pipe(
  Command.withShortDescription("Parse user agents, one a line (or an access log), to JSON lines or a summary"),
  Command.withDescription(
    "Parse user agents offline: one JSON result a line on stdout, the API's data, in input order. A line that " +
      'cannot be parsed gives {"line":N,"error":{...}} on its line and the run goes on; the exit status is 1 if any did.'
  )
)
