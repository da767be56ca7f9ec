// A `--jobs` worker: the file's segments it was given, answered in order and framed for the main process (Frames.ts).
import { Effect, Stdio, Stream } from "effect"
import type { makeSummary } from "../summary/Summary.ts"
import type { makeAnswer } from "./Answer.ts"
import { dataFrame, doneFrame, endFrame } from "./Frames.ts"
import { answers } from "./Read.ts"
import type { Segment } from "./Segments.ts"

export const runPart = Effect.fnUntraced(function* (
  file: string,
  segments: ReadonlyArray<Segment>,
  answer: ReturnType<typeof makeAnswer>,
  summary: ReturnType<typeof makeSummary> | undefined
) {
  const stdio = yield* Stdio.Stdio
  for (const { start, end, line } of segments) {
    yield* answers(file, answer.block, { range: { offset: start, bytes: end - start }, line }, () => {}).pipe(
      Stream.filter((text) => text !== ""),
      Stream.map(dataFrame),
      Stream.concat(Stream.make(endFrame(end - start))),
      Stream.run(stdio.stdout())
    )
  }
  yield* Stream.run(Stream.make(doneFrame(answer.counts, summary?.state())), stdio.stdout())
})
