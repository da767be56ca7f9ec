// `parse --summary` for people: humans, then bots, each field's values by count with their share, then time.
import { BOT_FIELDS, HUMAN_FIELDS, LOG_FIELDS, type SummaryJson } from "./Summary.ts"
import type { Values } from "./Tally.ts"

/** Rows a field shows, the rest summed on one row (the JSON lists every value kept). */
const TABLE_ROWS = 10
/** Rows of the timeline shown: the last ones, the JSON has them all. */
const TIME_ROWS = 48

export const number = (n: number) => n.toLocaleString("en")
const percent = (count: number, total: number) => `${total === 0 ? "0.0" : ((count * 100) / total).toFixed(1)} %`

// a value comes from the input: no control character reaches the terminal, no long one breaks the columns
const cell = (name: string) => {
  const clean = name.replace(/[\p{Cc}\p{Cf}]/gu, "?")
  return clean.length > 28 ? `${clean.slice(0, 27)}…` : clean
}

const section = (title: string, { values, other }: Values, total: number, width: number) => {
  const row = (name: string, count: string, share: string) =>
    `${name.padEnd(28)}  ${count.padStart(width)}  ${share.padStart(7)}`
  const rest = values.slice(TABLE_ROWS).reduce((sum, { count }) => sum + count, other)
  const rows = values.slice(0, TABLE_ROWS).map(({ name, count }) => [cell(name), count] as const)
  if (rest > 0) rows.push(["(others)", rest])
  const shown = rows.map(([name, count]) => row(name, number(count), percent(count, total)))
  return [row(title, "Count", "Share"), ...(shown.length === 0 ? ["(none)"] : shown)].join("\n")
}

const timeline = (summary: SummaryJson) => {
  if (summary.timeline === null) return []
  const { unit, buckets } = summary.timeline
  const types = [...new Set(buckets.flatMap((bucket) => Object.keys(bucket.deviceType)))].sort()
  const columns = ["Humans", "Bots", ...types]
  const width = Math.max(
    ...columns.map((column) => column.length),
    ...buckets.map((b) => number(b.humans + b.bots).length)
  )
  const line = (start: string, counts: ReadonlyArray<string>) =>
    `${start.padEnd(22)}${counts.map((count) => `  ${count.padStart(width)}`).join("")}`
  const shown = buckets.slice(-TIME_ROWS)
  const skipped = buckets.length - shown.length
  return [
    [
      line(`Traffic by ${unit}`, columns),
      ...(skipped > 0 ? [`(${number(skipped)} earlier ${unit}s in --json)`] : []),
      ...shown.map((b) => line(b.start, [b.humans, b.bots, ...types.map((t) => b.deviceType[t] ?? 0)].map(number)))
    ].join("\n")
  ]
}

/** The summary as a table for people. */
export const table = (summary: SummaryJson): string => {
  const { lines, parsed, skipped, failed, humans, bots } = summary
  const head = [
    `${number(lines)} lines: ${number(parsed)} parsed, ${number(skipped)} skipped (no user agent), ${number(failed)} failed`,
    `Humans ${number(humans)} (${percent(humans, parsed)}), bots ${number(bots)} (${percent(bots, parsed)})`
  ].join("\n")
  const width = Math.max(5, number(parsed).length)
  const logged = summary.timeline !== null
  const humanSections = [
    ...Object.entries(HUMAN_FIELDS).map(([field, [title]]) => [field, title] as const),
    ...(logged ? Object.entries(LOG_FIELDS) : [])
  ].map(([field, title]) => section(title, summary.human[field as keyof SummaryJson["human"]], humans, width))
  const botSections = [
    ...Object.entries(BOT_FIELDS).map(([field, [title]]) => [field, title] as const),
    ...(logged ? Object.entries(LOG_FIELDS) : [])
  ].map(([field, title]) => section(title, summary.bot[field as keyof SummaryJson["bot"]], bots, width))
  return `${[head, "HUMANS", ...humanSections, "BOTS", ...botSections, ...timeline(summary)].join("\n\n")}\n`
}
