// `tools-api parse`: a chunk's answers are written before the next is read (with workers, a few chunks ahead), so
// memory stays flat.
import { ByteSize, Effect, FileSystem, Option, Schedule, Stdio, Stream } from "effect"
import { Argument, CliError, Command, Flag } from "effect/cli"
import { UserAgents } from "../Tools/UserAgent/Service.ts"
import { integerFlag } from "./Integer.ts"
import { makeAnswer } from "./parse/Answer.ts"
import { csvHeader } from "./parse/Csv.ts"
import { makePool, WorkerFailed } from "./parse/Pool.ts"
import { makeProgress } from "./parse/Progress.ts"
import { answers, CannotRead } from "./parse/Read.ts"
import { page } from "./report/Page.ts"
import { offlineCacheSize, Refused, report, stderr, stdout, UncachedUserAgentsLive } from "./Report.ts"
import { makeSummary } from "./summary/Summary.ts"
import { table } from "./summary/Table.ts"

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
  format: Flag.Literals("format", ["json", "csv"]).pipe(
    Flag.withDescription("Each line's result as a JSON line (the default) or a CSV row under a header"),
    Flag.withDefault("json" as const)
  ),
  summary: toggle(
    "summary",
    "Instead of a line a result, counts at the end, humans and bots apart: versions, devices, bots, statuses, paths, time"
  ),
  json: toggle("json", "With --summary: the summary as one JSON object"),
  html: Flag.String("html").pipe(
    Flag.withDescription(
      "Also write the summary as a report to FILE: one HTML page with charts, that needs no network"
    ),
    Flag.withMetavar("FILE"),
    Flag.optional
  ),
  progress: toggle("progress", "Show progress on stderr even when it is not a terminal (a line each 10 s)"),
  jobs: integerFlag("jobs").pipe(
    Flag.withDescription(
      "Threads in all: the main one reads and writes while the N-1 others parse the user agents; 1 parses " +
        "there too (default: one a core for files of 64 MB or more, else 1)"
    ),
    Flag.optional
  )
}

type Options = Command.Command.Config.Infer<typeof flags>

const usage = (message: string) =>
  new CliError.ShowHelp({
    commandPath: ["tools-api", "parse"],
    errors: [new CliError.ValidationError({ message })]
  })

/** The inputs' total size, when each is a regular file (stdin too, when it is one: `< access.log`). */
const totalSize = (inputs: ReadonlyArray<string | undefined>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    let total = 0
    for (const input of inputs) {
      const info = yield* Effect.option(fs.stat(input ?? "/dev/stdin"))
      if (Option.isNone(info) || info.value.type !== "File") return undefined
      total += Number(ByteSize.toBigInt(info.value.size))
    }
    return total
  })

/** Input from which a run uses every core unless told otherwise: below it, starting workers costs more than it saves. */
const JOBS_FROM_BYTES = 64 * 1_048_576
/**
 * Blocks of input read on, a worker, while the workers parse the agents of earlier ones: one parsed while the next
 * waits. Two for one worker ran as fast as 16 (8.3-10.4 against 9.8-11.6 s on the realistic log) and peaked ~70 MB
 * lower; one alone was slower (13-18 s). See bench/README.md, "The command line".
 */
const BLOCKS_AHEAD_A_WORKER = 2

/**
 * With workers, the main thread's blocks outlive the young generation while they wait for the parses, so its garbage
 * waits for a full collection. One each second held `--jobs 2` on the realistic log at 252-270 MB against 295-311
 * without it, in the same time, as the worker's parses set the pace (`--summary`: 4-6 % slower; bench/README.md).
 */
const collectEachSecond = Effect.sync(() => Bun.gc(true)).pipe(
  Effect.repeat(Schedule.spaced("1 second")),
  Effect.forkScoped
)

const run = Effect.fn("Cli.parse")(
  function* (options: Options) {
    const summarise = options.summary || Option.isSome(options.html)
    if (options.json && !summarise)
      return yield* usage("--json is the summary's format: give it with --summary (the lines are JSON already)")
    if (options.format === "csv" && summarise)
      return yield* usage("--format csv writes each line's result: give it without --summary or --html")
    const userAgents = yield* UserAgents
    const fs = yield* FileSystem.FileSystem
    const stdio = yield* Stdio.Stdio
    const combined = Option.isSome(options.log)
    const summary = summarise ? makeSummary() : undefined
    const inputs = (options.files.length === 0 ? ["-"] : options.files).map((file) => (file === "-" ? undefined : file))
    const terminal = yield* stdio.stderrIsTerminal
    const showProgress = terminal || options.progress
    const total = yield* totalSize(inputs)
    const jobs = Option.getOrElse(options.jobs, () =>
      total !== undefined && total >= JOBS_FROM_BYTES && !inputs.includes(undefined) ? navigator.hardwareConcurrency : 1
    )
    // the main thread is one of the jobs: it reads, answers and writes while the others parse
    const workers = jobs - 1
    const pool = workers > 0 ? yield* makePool(workers) : undefined
    if (pool !== undefined) yield* collectEachSecond
    const parseAll = pool ?? ((agents: ReadonlyArray<string>) => userAgents.parseMany(agents))
    const known = yield* offlineCacheSize
    const answer = makeAnswer(parseAll, { combined, format: options.format, summary, known })
    const { counts } = answer
    const progress = showProgress ? yield* makeProgress({ terminal, combined, total }) : undefined
    let ioFailures = 0
    let bytes = 0
    const onBytes = (n: number) => {
      bytes += n
    }

    if (options.format === "csv") yield* stdout(csvHeader(combined))
    /** `file` undefined: stdin. One that cannot be read is told on stderr and the next is read. */
    const one = (file: string | undefined) =>
      answers(file, answer.block, pool === undefined ? 1 : BLOCKS_AHEAD_A_WORKER * workers, onBytes).pipe(
        Stream.mapError((error) =>
          error instanceof WorkerFailed ? error : new CannotRead({ message: error.reason.description ?? String(error) })
        ),
        Stream.tap(() => (progress === undefined ? Effect.void : progress.tick(counts, bytes))),
        Stream.run(stdio.stdout()),
        Effect.catchTags({
          CannotRead: (error) => {
            ioFailures++
            return stderr(`tools-api parse: cannot read ${file ?? "stdin"}: ${error.message}\n`)
          },
          WorkerFailed: (error) => {
            ioFailures++
            return stderr(`tools-api parse: ${file ?? "stdin"}: ${error.message}\n`)
          }
        })
      )
    for (const input of inputs) yield* one(input)

    const { lines, skipped, failed } = counts
    if (progress !== undefined) yield* progress.end(counts)
    if (summary !== undefined) {
      const tally = summary.json({ lines, skipped, failed })
      if (Option.isSome(options.html)) {
        const source = options.files.length === 0 ? "stdin" : options.files.join(", ")
        const written = yield* Effect.result(fs.writeFileString(options.html.value, page(tally, source)))
        if (written._tag === "Failure") {
          yield* stderr(
            `tools-api parse: cannot write the report to ${options.html.value}: ${written.failure.reason.description}\n`
          )
          ioFailures++
        }
      }
      yield* stdout(options.json ? `${JSON.stringify(tally)}\n` : table(tally))
    } else if (progress === undefined && skipped > 0) {
      yield* stderr(`tools-api parse: ${skipped} of ${lines} lines skipped: no user agent\n`)
    }
    // exit status 1, once every other line has its answer
    if (failed > 0 || ioFailures > 0) {
      if (progress === undefined && failed > 0) yield* stderr(`tools-api parse: ${failed} of ${lines} lines failed\n`)
      return yield* new Refused()
    }
  },
  Effect.scoped,
  Effect.provide(UncachedUserAgentsLive),
  report
)

export const ParseCommand = Command.make("parse", flags, run).pipe(
  Command.withShortDescription("Parse user agents, one a line (or an access log), to JSON lines, CSV or a summary"),
  Command.withDescription(
    "Parse user agents offline: one JSON result a line on stdout, the API's data, in input order. A line that " +
      'cannot be parsed gives {"line":N,"error":{...}} on its line and the run goes on; the exit status is 1 if any did.'
  )
)
