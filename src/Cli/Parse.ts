/**
 * `tools-api parse [FILE...]`: one user agent a line (or, with `--log combined`, an access log), one JSON result a
 * line, in input order: the API's `data` for a line that parses, `{"file"?, "line", "error"}` for one that does not
 * (the API's error body under `error`), and the run goes on. Input is read as a stream and each chunk's answers are
 * written before the next is read, so memory stays flat however long the input, or a line (Lines.ts).
 */
import { Clock, Data, Effect, FileSystem, Option, Result, Runtime, Schema, Stdio, Stream } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { InvalidRequest, InvalidRequestWire } from "../Errors.ts"
import { PAYLOAD_PARSE_OPTIONS } from "../Api.ts"
import { fromSchemaIssue } from "../Http/SchemaErrors.ts"
import { ParseRequest } from "../Tools/UserAgent/Schemas.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"
import { userAgentOf } from "./CombinedLog.ts"
import { boundedLines, MAX_LINE } from "./Lines.ts"
import { report } from "./Report.ts"
import { UserAgentsLive } from "./Services.ts"

/** Some lines failed, or some files could not be read: exit status 1, after every other line has had its answer. */
export class LinesFailed extends Data.TaggedError("LinesFailed")<{
  readonly failed: number
  readonly unreadable: number
}> {
  override readonly [Runtime.errorExitCode] = 1
}

class CannotRead extends Data.TaggedError("CannotRead")<{ readonly cause: unknown }> {}

// with the input in the issues, as the API decodes payloads (Api.ts), so the messages are the same
const decode = Schema.decodeUnknownResult(ParseRequest, PAYLOAD_PARSE_OPTIONS)

/** The error body the API would give for this string under `userAgent`, or undefined when it is a valid one. */
const problem = (userAgent: string): InvalidRequest | undefined => {
  const result = decode({ operation: "parse", userAgent })
  return Result.isSuccess(result) ? undefined : (fromSchemaIssue(result.failure.issue) as InvalidRequest)
}

const tooLong = new InvalidRequest({
  message: `The line is longer than ${MAX_LINE.toLocaleString("en")} characters, the most read of a line`
})
const notCombined = new InvalidRequest({ message: "The line is not in the combined log format" })
const noUserAgent = new InvalidRequest({
  message: 'The line has no user agent ("-")',
  details: [{ path: "userAgent", message: 'is "-", the log\'s mark for a request without one' }]
})

const errorBody = (error: InvalidRequest) => Schema.encodeSync(InvalidRequestWire)(error).error

interface Input {
  readonly file: string | undefined
  readonly bytes: Stream.Stream<Uint8Array, unknown>
}

const run = Effect.fn("Cli.parse")(
  function* (options: { readonly files: ReadonlyArray<string>; readonly log: Option.Option<"combined"> }) {
    const userAgents = yield* UserAgents
    const fs = yield* FileSystem.FileSystem
    const stdio = yield* Stdio.Stdio
    const combined = Option.isSome(options.log)
    const showProgress = yield* stdio.stderrIsTerminal
    const started = yield* Clock.currentTimeMillis
    const stderr = (text: string) => Stream.run(Stream.make(text), stdio.stderr()).pipe(Effect.ignore)
    let lines = 0
    let failed = 0
    let unreadable = 0
    let shownAt = started

    const answer = (file: string | undefined, line: number, raw: string) => {
      const userAgent = raw.length > MAX_LINE ? undefined : combined ? userAgentOf(raw)?.userAgent : raw
      const wrong =
        raw.length > MAX_LINE
          ? tooLong
          : userAgent === undefined
            ? notCombined
            : combined && userAgent === "-"
              ? noUserAgent
              : problem(userAgent)
      if (wrong !== undefined) {
        failed++
        return Effect.succeed(
          JSON.stringify({ ...(file === undefined ? {} : { file }), line, error: errorBody(wrong) })
        )
      }
      return Effect.map(userAgents.parse(userAgent!), (data) => JSON.stringify(data))
    }

    const progress = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (now - shownAt < 1_000) return
      shownAt = now
      const rate = Math.round((lines * 1_000) / Math.max(1, now - started))
      yield* stderr(
        `\r\x1b[K${lines.toLocaleString("en")} lines, ${rate.toLocaleString("en")} lines/s, ${failed} failed`
      )
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
              for (const raw of chunk) {
                out += (yield* answer(input.file, ++line, raw)) + "\n"
              }
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

    if (showProgress) yield* stderr(`\r\x1b[K${lines.toLocaleString("en")} lines, ${failed} failed\n`)
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
        "Read access-log lines (nginx's and Apache's default combined format) and parse each one's user agent"
      ),
      Flag.optional
    )
  },
  run
).pipe(
  Command.withShortDescription("Parse user agents, one a line (or an access log), to JSON lines"),
  Command.withDescription(
    "Parse user agents offline: one JSON result a line on stdout, the API's data, in input order. A line that " +
      'cannot be parsed gives {"line":N,"error":{...}} on its line and the run goes on; the exit status is 1 if any did.'
  )
)
