/**
 * `tools-api parse [FILE...]`: one user agent a line (or, with `--log combined`, an access log), one JSON result a
 * line, in input order: the API's `data` for a line that parses (from a log, with the line's number and fields
 * beside it), `{"file"?, "line", "error"}` for one that does not (the API's error body under `error`), and the run
 * goes on; a log line without a user agent is skipped and counted. With `--summary`, counts instead (Summary.ts).
 * Input is read as a stream and each chunk's answers are written before the next is read, so memory stays flat
 * however long the input, or a line (Lines.ts).
 */
import { Clock, Data, Effect, FileSystem, Option, Runtime, Stdio, Stream } from "effect"
import { Argument, CliError, Command, Flag } from "effect/cli"
import { InvalidRequest } from "../Errors.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"
import { errorBody, readEntry } from "./Entry.ts"
import { boundedLines } from "./Lines.ts"
import { report } from "./Report.ts"
import { makeSummary, table } from "./Summary.ts"
import { UserAgentsLive } from "./Services.ts"

/** Some lines failed, or some files could not be read: exit status 1, after every other line has had its answer. */
export class LinesFailed extends Data.TaggedError("LinesFailed")<{
  readonly failed: number
  readonly unreadable: number
}> {
  override readonly [Runtime.errorExitCode] = 1
}

class CannotRead extends Data.TaggedError("CannotRead")<{ readonly cause: unknown }> {}

interface Input {
  readonly file: string | undefined
  readonly bytes: Stream.Stream<Uint8Array, unknown>
}

interface Options {
  readonly files: ReadonlyArray<string>
  readonly log: Option.Option<"combined">
  readonly summary: boolean
  readonly json: boolean
}

const run = Effect.fn("Cli.parse")(
  function* (options: Options) {
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
    const stderr = (text: string) => Stream.run(Stream.make(text), stdio.stderr()).pipe(Effect.ignore)
    let lines = 0
    let failed = 0
    let skipped = 0
    let unreadable = 0
    let shownAt = started

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
        return Effect.succeed(summary !== undefined ? "" : `${JSON.stringify({ ...where, error: errorBody(entry) })}\n`)
      }
      return Effect.map(userAgents.parse(entry.userAgent), (data) => {
        if (summary !== undefined) {
          summary.add(data)
          return ""
        }
        // the API's data as it is, with where the line was and what the log said beside it
        return `${JSON.stringify(entry.log === undefined ? data : { ...where, log: entry.log, ...data })}\n`
      })
    }

    const counts = () =>
      `${lines.toLocaleString("en")} lines, ${combined ? `${skipped.toLocaleString("en")} skipped, ` : ""}` +
      `${failed.toLocaleString("en")} failed`
    const progress = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (now - shownAt < 1_000) return
      shownAt = now
      const rate = Math.round((lines * 1_000) / Math.max(1, now - started))
      yield* stderr(`\r\x1b[K${counts()}, ${rate.toLocaleString("en")} lines/s`)
    })

    const one = (input: Input) =>
      Effect.suspend(() => {
        let line = 0
        return input.bytes.pipe(
          Stream.mapError((cause) => new CannotRead({ cause })),
          Stream.decodeText(),
          boundedLines,
          Stream.mapArrayEffect((chunk) =>
            Effect.gen(function* () {
              let out = ""
              for (const raw of chunk) out += yield* answer(input.file, ++line, raw)
              lines += chunk.length
              if (showProgress) yield* progress
              return [out] as const
            })
          ),
          Stream.run(stdio.stdout()),
          // an input that cannot be read is told on stderr and the next one is read; a failing stdout ends the run
          Effect.catchTag("CannotRead", (error) => {
            unreadable++
            return stderr(`tools-api parse: cannot read ${input.file ?? "stdin"}: ${describe(error.cause)}\n`)
          })
        )
      })

    const inputs: ReadonlyArray<Input> =
      options.files.length === 0
        ? [{ file: undefined, bytes: stdio.stdin }]
        : options.files.map((file) =>
            file === "-" ? { file: undefined, bytes: stdio.stdin } : { file, bytes: fs.stream(file) }
          )
    for (const input of inputs) yield* one(input)

    if (showProgress) yield* stderr(`\r\x1b[K${counts()}\n`)
    if (summary !== undefined) {
      const tally = summary.json({ lines, skipped, failed })
      yield* Stream.run(Stream.make(options.json ? `${JSON.stringify(tally)}\n` : table(tally)), stdio.stdout())
    } else if (!showProgress && skipped > 0) {
      yield* stderr(`tools-api parse: ${skipped} of ${lines} lines skipped: no user agent\n`)
    }
    if (failed > 0 || unreadable > 0) {
      if (!showProgress && failed > 0) yield* stderr(`tools-api parse: ${failed} of ${lines} lines failed\n`)
      return yield* new LinesFailed({ failed, unreadable })
    }
  },
  Effect.provide(UserAgentsLive),
  report
)

const describe = (error: unknown): string => {
  const reason = (error as { readonly reason?: { readonly description?: unknown } } | undefined)?.reason
  return typeof reason?.description === "string" ? reason.description : String(error)
}

export const ParseCommand = Command.make(
  "parse",
  {
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
    summary: Flag.Boolean("summary").pipe(
      Flag.withDescription(
        "Instead of a line a result, counts by browser, OS, device type, vendor and bot at the end (a table)"
      ),
      Flag.withDefault(false)
    ),
    json: Flag.Boolean("json").pipe(
      Flag.withDescription("With --summary: the summary as one JSON object"),
      Flag.withDefault(false)
    )
  },
  run
).pipe(
  Command.withShortDescription("Parse user agents, one a line (or an access log), to JSON lines or a summary"),
  Command.withDescription(
    "Parse user agents offline: one JSON result a line on stdout, the API's data, in input order. A line that " +
      'cannot be parsed gives {"line":N,"error":{...}} on its line and the run goes on; the exit status is 1 if any did.'
  )
)
