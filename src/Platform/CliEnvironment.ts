/** What `effect/cli` needs from the process (no stable platform package for Effect 4 on Bun). */
import { ByteSize, Effect, FileSystem, Layer, Option, Path, PlatformError, Sink, Stdio, Stream, Terminal } from "effect"
import { CliConfig, CliOutput, GlobalFlag } from "effect/cli"
import { ChildProcessSpawner } from "effect/process"
import { createReadStream, readFileSync, type Stats, statSync, writeFileSync } from "node:fs"

// Only the description is ever shown (Cli/Report.ts, Cli/Parse.ts): no reason tag is told apart.
const failure = (module: string, method: string, cause: unknown) => {
  const description = cause instanceof Error ? cause.message : String(cause)
  return PlatformError.systemError({ _tag: "Unknown", module, method, description, cause })
}

// Whether a standard descriptor was closed when the process started (`>&-`): Bun then opens /dev/null in its place,
// where writes vanish unseen, and opens it close-on-exec, which no inherited descriptor is. Linux only (/proc).
const closedAtStart = (fd: number): boolean => {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1]
    return flags !== undefined && (Number.parseInt(flags, 8) & 0o2000000) !== 0 // O_CLOEXEC
  } catch {
    return false
  }
}

/**
 * A stream's sink: each write waits for `drain` when the buffer is full, so output never piles up; a failed write fails
 * the sink. Its one `error` listener lives as long as the layer, however many times the sink is asked for (a progress
 * line asks once a second).
 */
const writer = (stream: NodeJS.WritableStream, name: string, fd: number | undefined) =>
  Effect.gen(function* () {
    let broken: unknown =
      fd !== undefined && closedAtStart(fd)
        ? Object.assign(new Error(`EBADF: ${name} was closed when the command started`), { code: "EBADF" })
        : undefined
    // A closed reader (`| head`) is an error event, which without a listener would end the process.
    const onError = (error: unknown) => {
      broken = error
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => stream.on("error", onError)),
      () => Effect.sync(() => stream.off("error", onError))
    )
    const write = (chunk: string | Uint8Array) =>
      Effect.callback<void, PlatformError.PlatformError>((resume) => {
        if (broken !== undefined) return resume(Effect.fail(failure("Stdio", name, broken)))
        if (stream.write(chunk)) return resume(Effect.void)
        const done = () => {
          stream.off("drain", done)
          stream.off("error", done)
          resume(broken === undefined ? Effect.void : Effect.fail(failure("Stdio", name, broken)))
        }
        stream.on("drain", done)
        stream.on("error", done)
      })
    return Sink.forEach(write)
  })

/** The size a file is read in, and standard input's pieces at most. */
const PIECE = 1 << 16

// opened when read, so a missing file is an error of its own turn; node's stream tells it as a stream error
const readable = (path: string, range: { start: number; end?: number }) =>
  Stream.suspend(() =>
    Stream.fromAsyncIterable(createReadStream(path, { highWaterMark: PIECE, ...range }), (cause) =>
      failure("FileSystem", "stream", cause)
    )
  )

/** A redirected file comes to standard input in chunks of 512 KiB, and `parse` answers a chunk a block: cut as a file is. */
const piecesOf = (chunk: Uint8Array): Array<Uint8Array> => {
  const pieces: Array<Uint8Array> = []
  for (let at = 0; at < chunk.length; at += PIECE) pieces.push(chunk.subarray(at, at + PIECE))
  return pieces
}

/** Standard input by Bun's own reader: a one-line `parse` got its bytes ~5 ms sooner than through node's stream. */
const stdin = Stream.fromReadableStream({
  evaluate: () => Bun.stdin.stream(),
  onError: (cause) => failure("Stdio", "stdin", cause)
}).pipe(Stream.map(piecesOf), Stream.flattenIterable)

/** The process's standard streams, or others standing in for them in a test (`fd` undefined: no probe of /proc). */
export interface Streams {
  readonly stdout: NodeJS.WriteStream
  readonly stderr: NodeJS.WriteStream
  readonly fds?: { readonly stdout: number; readonly stderr: number }
}

export const layerStdio = (streams: Streams) =>
  Layer.effect(
    Stdio.Stdio,
    Effect.gen(function* () {
      const stdout = yield* writer(streams.stdout, "stdout", streams.fds?.stdout)
      const stderr = yield* writer(streams.stderr, "stderr", streams.fds?.stderr)
      return Stdio.make({
        args: Effect.sync(() => process.argv.slice(2)),
        stdinIsTerminal: Effect.sync(() => process.stdin.isTTY === true),
        stdoutIsTerminal: Effect.sync(() => streams.stdout.isTTY === true),
        stderrIsTerminal: Effect.sync(() => streams.stderr.isTTY === true),
        stdout: () => stdout,
        stderr: () => stderr,
        stdin
      })
    })
  )

const unused = Effect.die("not used by the command line")

// what `parse` reads of a file before it reads it: its type and size (the progress line's percentage)
const infoOf = (stats: Stats): FileSystem.File.Info => ({
  type: stats.isFile() ? "File" : stats.isDirectory() ? "Directory" : stats.isFIFO() ? "FIFO" : "Unknown",
  mtime: Option.some(stats.mtime),
  atime: Option.some(stats.atime),
  birthtime: Option.some(stats.birthtime),
  dev: BigInt(stats.dev),
  ino: Option.some(BigInt(stats.ino)),
  mode: stats.mode,
  nlink: Option.some(BigInt(stats.nlink)),
  uid: Option.some(stats.uid),
  gid: Option.some(stats.gid),
  rdev: Option.some(BigInt(stats.rdev)),
  size: ByteSize.bytes(stats.size),
  blksize: Option.some(ByteSize.bytes(stats.blksize)),
  blocks: Option.some(BigInt(stats.blocks))
})
const stat = (path: string) =>
  Effect.try({ try: () => infoOf(statSync(path)), catch: (cause) => failure("FileSystem", "stat", cause) })

export const CliEnvironmentLive = Layer.mergeAll(
  layerStdio({ stdout: process.stdout, stderr: process.stderr, fds: { stdout: 1, stderr: 2 } }),
  FileSystem.layerNoop({
    // a range of the file for a `parse --jobs` worker's segment
    stream: (path, options) => {
      const start = options?.offset === undefined ? 0 : Number(ByteSize.fromInputUnsafe(options.offset))
      const bytes =
        options?.bytesToRead === undefined ? undefined : Number(ByteSize.fromInputUnsafe(options.bytesToRead))
      return readable(path, bytes === undefined ? { start } : { start, end: start + bytes - 1 })
    },
    stat,
    // the report of `parse --html`
    writeFileString: (path, text) =>
      Effect.try({ try: () => writeFileSync(path, text), catch: (cause) => failure("FileSystem", "writeFile", cause) })
  }),
  Path.layer,
  Layer.succeed(
    Terminal.Terminal,
    Terminal.make({
      columns: Effect.sync(() => process.stdout.columns ?? 80),
      rows: Effect.sync(() => process.stdout.rows ?? 24),
      size: unused,
      readInput: unused,
      readLine: unused,
      display: () => Effect.void
    })
  ),
  Layer.succeed(
    ChildProcessSpawner.ChildProcessSpawner,
    ChildProcessSpawner.make(() => unused)
  ),
  // Only --help and --version: the wizard, shell completions and --log-level are not part of this command line.
  CliConfig.layer({ builtIns: [GlobalFlag.Help, GlobalFlag.Version] }),
  // `--version` prints the version alone, as scripts and the smoke test read it
  CliOutput.layer({ ...CliOutput.defaultFormatter(), formatVersion: (_name, version) => version })
)
