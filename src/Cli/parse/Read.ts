// One input read as a stream of bounded lines, each block of them answered and handed on.
import { Data, Effect, FileSystem, Stdio, Stream } from "effect"
import { boundedLines } from "../Lines.ts"

export class CannotRead extends Data.TaggedError("CannotRead")<{ readonly message: string }> {}

/**
 * `file` undefined: stdin. `ahead`: blocks whose agents are parsed at once (with workers, the main process reads on
 * while they parse); each block's lines are then answered, and handed on, in the input's order.
 */
export const answers = <E>(
  file: string | undefined,
  block: (file: string | undefined, first: number, lines: ReadonlyArray<string>) => Effect.Effect<() => string, E>,
  ahead: number,
  onBytes: (bytes: number) => void
) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const stdio = yield* Stdio.Stdio
    let line = 1
    const bytes = file === undefined ? stdio.stdin : fs.stream(file)
    return bytes.pipe(
      Stream.map((chunk) => {
        onBytes(chunk.length)
        return chunk
      }),
      Stream.decodeText(),
      boundedLines,
      Stream.chunks,
      Stream.map((lines) => {
        const first = line
        line += lines.length
        return { first, lines }
      }),
      Stream.mapEffect(({ first, lines }) => block(file, first, lines), { concurrency: ahead }),
      // in the input's order, whichever block's parses ended first
      Stream.map((answer) => answer())
    )
  }).pipe(Stream.unwrap)
