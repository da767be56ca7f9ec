// `parse --summary`: humans and bots counted apart, each field bounded (Tally.ts), time by hour or day (Timeline.ts).
import { Record } from "effect"
import type { UserAgentInfo } from "../../Tools/UserAgent/Schemas.ts"
import { makeTally, type Values } from "./Tally.ts"
import { makeTimeline, type Timeline } from "./Timeline.ts"

/** Distinct values a field counts exactly; paths (query strings dropped) vary more, and count more. */
export const MAX_VALUES = 1_000
export const MAX_PATHS = 10_000
/** Distinct agents counted by line before their fields are: a line's agent costs one count, not one a field. */
const FOLD_AGENTS = 10_000

/** What a log line said beside its user agent (Lines.ts); none for plain input. */
export interface LogFields {
  readonly time: string
  readonly path: string | null
  readonly status: number | null
}

const UNKNOWN = "Unknown"
// a version's major ("124" of "124.0.6367.60"); macOS 10's minor too, as it names the release ("10.15")
const major = (version: string, macOS: boolean) =>
  (macOS && version.startsWith("10.") ? /^\d+\.\d+/ : /^\d+/).exec(version)?.[0] ?? version
const versioned = (name: string, version: string, macOS = false) =>
  name === UNKNOWN || version === UNKNOWN ? name : `${name} ${major(version, macOS)}`
const modelOf = (data: UserAgentInfo) => {
  const { vendor, model, name } = data.device
  const shown = name !== UNKNOWN ? name : model
  return shown === UNKNOWN ? UNKNOWN : vendor === UNKNOWN || shown.startsWith(vendor) ? shown : `${vendor} ${shown}`
}

export const HUMAN_FIELDS = {
  browser: ["Browser", (data: UserAgentInfo) => data.browser.name],
  browserVersion: ["Browser version", (data: UserAgentInfo) => versioned(data.browser.name, data.browser.version)],
  os: ["OS", (data: UserAgentInfo) => data.os.name],
  osVersion: [
    "OS version",
    (data: UserAgentInfo) => versioned(data.os.name, data.os.version, data.os.name === "macOS")
  ],
  deviceType: ["Device type", (data: UserAgentInfo) => data.device.type],
  vendor: ["Vendor", (data: UserAgentInfo) => data.device.vendor],
  model: ["Model", modelOf]
} as const
export const BOT_FIELDS = {
  category: ["Bot category", (data: UserAgentInfo) => data.bot.category],
  name: ["Bot name", (data: UserAgentInfo) => data.bot.name]
} as const
export const LOG_FIELDS = { status: "Status", path: "Path" } as const

type HumanField = keyof typeof HUMAN_FIELDS
type BotField = keyof typeof BOT_FIELDS
type LogField = keyof typeof LOG_FIELDS
type Lines = { readonly [K in "lines" | "skipped" | "failed"]: number }

export type SummaryJson = Lines & {
  readonly parsed: number
  readonly humans: number
  readonly bots: number
  readonly human: Record.ReadonlyRecord<HumanField | LogField, Values>
  readonly bot: Record.ReadonlyRecord<BotField | LogField, Values>
  readonly timeline: Timeline | null
}

/** What a summary counts of a parsed agent, worked out once for each distinct one (parse/Answer.ts keeps it). */
export interface Counted {
  readonly isBot: boolean
  readonly deviceType: string
  /** The agent's value of each field of its side, in the order of HUMAN_FIELDS or BOT_FIELDS. */
  readonly values: ReadonlyArray<string>
}

type Getters = ReadonlyArray<readonly [string, (data: UserAgentInfo) => string]>
const HUMAN_GETTERS: Getters = Object.values(HUMAN_FIELDS)
const BOT_GETTERS: Getters = Object.values(BOT_FIELDS)

export const countedOf = (data: UserAgentInfo): Counted => ({
  isBot: data.bot.isBot,
  deviceType: data.device.type,
  values: (data.bot.isBot ? BOT_GETTERS : HUMAN_GETTERS).map(([, of]) => of(data))
})

/** A tally for each field, and for the log's status and path. */
const tallies = <K extends string>(fields: Record.ReadonlyRecord<K, unknown>) => ({
  ...Record.map(fields, () => makeTally(MAX_VALUES)),
  status: makeTally(MAX_VALUES),
  path: makeTally(MAX_PATHS)
})

const withoutQuery = (path: string) => {
  const query = path.indexOf("?")
  return query === -1 ? path : path.slice(0, query)
}

export const makeSummary = () => {
  const human = tallies(HUMAN_FIELDS)
  const bot = tallies(BOT_FIELDS)
  // in the order of Counted's values
  const humanTallies = Record.keys(HUMAN_FIELDS).map((field) => human[field])
  const botTallies = Record.keys(BOT_FIELDS).map((field) => bot[field])
  const timeline = makeTimeline()
  // a status's text made once (three digits: at most 1,000), not once a line
  const statusTexts: Array<string | undefined> = []
  const statusText = (status: number) => {
    const made = statusTexts[status]
    if (made !== undefined) return made
    const text = String(status)
    statusTexts[status] = text
    return text
  }
  let humans = 0
  let bots = 0

  // lines by agent, added to the fields' tallies in the order the agents came (so each tally sees its values in the
  // lines' order, and keeps the same first ones), every FOLD_AGENTS agents and at the end
  const byAgent = new Map<Counted, number>()
  const fold = () => {
    for (const [counted, lines] of byAgent) {
      const fields = counted.isBot ? botTallies : humanTallies
      counted.values.forEach((value, i) => fields[i]!.add(value, lines))
    }
    byAgent.clear()
  }

  const add = (counted: Counted, log: LogFields | undefined): void => {
    const side = counted.isBot ? bot : human
    if (counted.isBot) bots++
    else humans++
    byAgent.set(counted, (byAgent.get(counted) ?? 0) + 1)
    if (byAgent.size >= FOLD_AGENTS) fold()
    if (log === undefined) return
    side.status.add(log.status === null ? "-" : statusText(log.status))
    if (log.path !== null) side.path.add(withoutQuery(log.path))
    timeline.add(log.time, counted.isBot, counted.deviceType)
  }

  const json = ({ lines, skipped, failed }: Lines): SummaryJson => {
    fold()
    return {
      lines,
      parsed: lines - skipped - failed,
      skipped,
      failed,
      humans,
      bots,
      human: Record.map(human, (tally) => tally.json()),
      bot: Record.map(bot, (tally) => tally.json()),
      timeline: timeline.json()
    }
  }

  return { add, json }
}
