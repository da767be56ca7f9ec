// One input read as a stream of bounded lines, each block of them answered and handed on (to stdout, or framed).
import { Data, Effect, FileSystem, Stdio, Stream } from "effect"
import { boundedLines } from "../Lines.ts"
import type { makeAnswer } from "./Answer.ts"

export class CannotRead extends Data.TaggedError("CannotRead")<{ readonly message: string }> {}

/** `file` undefined: stdin; `range`: a segment of the file (`--jobs`), its first line numbered `line`. */
export const answers = (
  file: string | undefined,
  block: ReturnType<typeof makeAnswer>["block"],
  options: { readonly range?: { readonly offset: number; readonly bytes: number }; readonly line?: number },
  onBytes: (bytes: number) => void
) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const stdio = yield* Stdio.Stdio
    let line = options.line ?? 1
    const bytes =
      file === undefined
        ? stdio.stdin
        : fs.stream(
            file,
            options.range === undefined ? {} : { offset: options.range.offset, bytesToRead: options.range.bytes }
          )
    return bytes.pipe(
      Stream.map((chunk) => {
        onBytes(chunk.length)
        return chunk
      }),
      Stream.decodeText(),
      boundedLines,
      Stream.mapArrayEffect((chunk) =>
        Effect.map(block(file, line, chunk), (out) => {
          line += chunk.length
          return [out] as const
        })
      )
    )
  }).pipe(Stream.unwrap)
