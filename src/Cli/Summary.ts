// `parse --summary`: at most MAX_VALUES values a field counted exactly (the first seen), later ones in `other`.
import type { UserAgentInfo } from "../Tools/UserAgent/Schemas.ts"

export const MAX_VALUES = 1_000
/** Rows a field shows in the table, the rest summed on one row (the JSON lists every value kept). */
const TABLE_ROWS = 10

const FIELDS = {
  browser: ["Browser", (data: UserAgentInfo) => data.browser.name],
  os: ["OS", (data: UserAgentInfo) => data.os.name],
  deviceType: ["Device type", (data: UserAgentInfo) => data.device.type],
  vendor: ["Vendor", (data: UserAgentInfo) => data.device.vendor],
  // of bots only: every other result would be "Unknown"
  botCategory: ["Bot category", (data: UserAgentInfo) => (data.bot.isBot ? data.bot.category : undefined)]
} as const
type Field = keyof typeof FIELDS
const fields = Object.keys(FIELDS) as ReadonlyArray<Field>

interface Values {
  readonly values: ReadonlyArray<{ readonly name: string; readonly count: number }>
  readonly other: number
}
type Lines = { readonly [K in "lines" | "skipped" | "failed"]: number }
type SummaryJson = Lines & { readonly parsed: number; readonly bots: number } & Record<Field, Values>

export const makeSummary = () => {
  const tallies = fields.map(() => ({ counts: new Map<string, number>(), other: 0 }))
  let bots = 0

  const add = (data: UserAgentInfo): void => {
    if (data.bot.isBot) bots++
    fields.forEach((field, i) => {
      const value = FIELDS[field][1](data)
      const tally = tallies[i]!
      if (value === undefined) return
      if (tally.counts.has(value) || tally.counts.size < MAX_VALUES)
        tally.counts.set(value, (tally.counts.get(value) ?? 0) + 1)
      else tally.other++
    })
  }

  const json = ({ lines, skipped, failed }: Lines): SummaryJson => {
    const byField = fields.map((field, i): [Field, Values] => {
      const sorted = [...tallies[i]!.counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
      return [field, { values: sorted.map(([name, count]) => ({ name, count })), other: tallies[i]!.other }]
    })
    const head = { lines, parsed: lines - skipped - failed, skipped, failed, bots }
    return { ...head, ...(Object.fromEntries(byField) as Record<Field, Values>) }
  }

  return { add, json }
}

export const number = (n: number) => n.toLocaleString("en")
// a value comes from the input: no control character reaches the terminal, no long one breaks the columns
const cell = (name: string) => {
  const clean = name.replace(/[\p{Cc}\p{Cf}]/gu, "?")
  return clean.length > 28 ? `${clean.slice(0, 27)}…` : clean
}

/** The summary as a table for people: the counts, then each field's values by count with their share. */
export const table = (summary: SummaryJson): string => {
  const { lines, parsed, skipped, failed, bots } = summary
  const head = `${number(lines)} lines: ${number(parsed)} parsed (${number(bots)} bots), ${number(skipped)} skipped (no user agent), ${number(failed)} failed\n`
  const width = Math.max(5, number(parsed).length)
  const row = (name: string, count: string, share: string) =>
    `${name.padEnd(28)}  ${count.padStart(width)}  ${share.padStart(7)}`
  const sections = fields.map((field) => {
    const { values, other } = summary[field]
    const total = field === "botCategory" ? bots : parsed
    const rest = values.slice(TABLE_ROWS).reduce((sum, { count }) => sum + count, other)
    const rows = values.slice(0, TABLE_ROWS).map(({ name, count }) => [cell(name), count] as const)
    if (rest > 0) rows.push(["(others)", rest])
    const shown = rows.map(([name, count]) => row(name, number(count), `${((count * 100) / total).toFixed(1)} %`))
    return [row(FIELDS[field][0], "Count", "Share"), ...(shown.length === 0 ? ["(none)"] : shown)].join("\n")
  })
  return `${head}\n${sections.join("\n\n")}\n`
}
