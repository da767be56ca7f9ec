// What a `--jobs` worker writes on its stdout for the main process: its answers framed by segment, then its counts.
import { Schema } from "effect"
import type { SummaryState } from "../summary/Summary.ts"
import type { Counts } from "./Answer.ts"

export type Frame =
  | { readonly _tag: "Data"; readonly bytes: Uint8Array }
  | { readonly _tag: "End"; readonly bytes: number }
  | { readonly _tag: "Done"; readonly counts: Counts; readonly summary: SummaryState | undefined }

const Tally = Schema.Struct({
  counts: Schema.Array(Schema.Tuple([Schema.String, Schema.Number])),
  other: Schema.Number
})

/** The last frame's body, as `doneFrame` writes it (a summary absent when the run counts none). */
const Done = Schema.fromJsonString(
  Schema.Struct({
    counts: Schema.Struct({ lines: Schema.Number, skipped: Schema.Number, failed: Schema.Number }),
    summary: Schema.optionalKey(
      Schema.Struct({
        humans: Schema.Number,
        bots: Schema.Number,
        human: Schema.Record(Schema.String, Tally),
        bot: Schema.Record(Schema.String, Tally),
        timeline: Schema.Struct({
          hours: Schema.Array(Schema.Tuple([Schema.String, Schema.Record(Schema.String, Schema.Number)])),
          other: Schema.Number
        })
      })
    )
  })
)
const readDone = Schema.decodeUnknownSync(Done)

const encoder = new TextEncoder()

/** Answers: `D<bytes>\n` and the bytes. */
export const dataFrame = (text: string) => {
  const bytes = encoder.encode(text)
  return Buffer.concat([encoder.encode(`D${bytes.length}\n`), bytes])
}
/** A segment's end, with its input's size (the progress line's share). */
export const endFrame = (bytes: number) => encoder.encode(`E${bytes}\n`)
/** The worker's last frame: its counts and its summary's state. */
export const doneFrame = (counts: Counts, summary: SummaryState | undefined) => {
  const bytes = encoder.encode(JSON.stringify({ counts, summary }))
  return Buffer.concat([encoder.encode(`C${bytes.length}\n`), bytes])
}

/** The frames of a worker's stdout, as they arrive. */
export async function* readFrames(stream: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  let buffer = Buffer.alloc(0)
  for await (const chunk of stream) {
    buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk])
    while (true) {
      const newline = buffer.indexOf(10)
      if (newline === -1) break
      const kind = String.fromCharCode(buffer[0]!)
      const size = Number(buffer.subarray(1, newline).toString("latin1"))
      if (kind === "E") {
        buffer = buffer.subarray(newline + 1)
        yield { _tag: "End", bytes: size }
        continue
      }
      if (buffer.length < newline + 1 + size) break
      const body = buffer.subarray(newline + 1, newline + 1 + size)
      buffer = buffer.subarray(newline + 1 + size)
      if (kind === "D") yield { _tag: "Data", bytes: body }
      else {
        const { counts, summary } = readDone(body.toString("utf8"))
        yield { _tag: "Done", counts, summary }
      }
    }
  }
}
