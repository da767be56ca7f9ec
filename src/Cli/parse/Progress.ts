// The progress line: on a terminal rewritten in place each second; elsewhere (`--progress` into a file) a line each 10 s.
import { Clock, Effect } from "effect"
import { stderr } from "../Report.ts"
import { number } from "../summary/Table.ts"
import type { Counts } from "./Answer.ts"

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(bytes < 10_485_760 ? 1 : 0)} MB`

const duration = (ms: number) => {
  const seconds = Math.ceil(ms / 1_000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

export interface ProgressOptions {
  readonly terminal: boolean
  readonly combined: boolean
  /** The input's size in bytes, when every input is a file whose size is known. */
  readonly total: number | undefined
}

export const makeProgress = Effect.fnUntraced(function* (options: ProgressOptions) {
  const started = yield* Clock.currentTimeMillis
  const every = options.terminal ? 1_000 : 10_000
  let shownAt = started

  const counted = ({ lines, skipped, failed }: Counts) =>
    `${number(lines)} lines, ${options.combined ? `${number(skipped)} skipped, ` : ""}${number(failed)} failed`

  const line = (counts: Counts, bytes: number, now: number) => {
    const elapsed = Math.max(1, now - started)
    const rate = `${number(Math.round((counts.lines * 1_000) / elapsed))} lines/s`
    const { total } = options
    if (total === undefined || total === 0) return `${counted(counts)}, ${rate}`
    const done = Math.min(1, bytes / total)
    const left = done === 0 ? "" : `, ${duration((elapsed * (1 - done)) / done)} left`
    return `${(done * 100).toFixed(1)} % of ${megabytes(total)}, ${counted(counts)}, ${rate}${left}`
  }
  const show = (text: string) => stderr(options.terminal ? `\r\x1b[K${text}` : `tools-api parse: ${text}\n`)

  return {
    /** Shown when a second (ten off a terminal) has passed since the last time. */
    tick: (counts: Counts, bytes: number) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (now - shownAt < every) return
        shownAt = now
        yield* show(line(counts, bytes, now))
      }),
    /** The counts at the end, on a line of their own. */
    end: (counts: Counts) =>
      stderr(options.terminal ? `\r\x1b[K${counted(counts)}\n` : `tools-api parse: ${counted(counts)}\n`)
  }
})
