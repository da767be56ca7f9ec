// The report's charts, each made from the summary's JSON: what is drawn is what `--summary --json` says.
import type { SummaryJson } from "../summary/Summary.ts"
import type { Values } from "../summary/Tally.ts"

export interface Chart {
  readonly id: string
  readonly title: string
  readonly type: "bar" | "doughnut"
  /** Bars drawn across (ranked values) or up (time), stacked when there are several datasets. */
  readonly horizontal: boolean
  readonly labels: ReadonlyArray<string>
  readonly datasets: ReadonlyArray<{ readonly label: string; readonly data: ReadonlyArray<number> }>
}

export interface Section {
  readonly title: string
  readonly note: string
  readonly charts: ReadonlyArray<Chart>
}

/** Values a ranked chart shows, the rest summed on one bar. */
export const TOP = 12

const ranked = (id: string, title: string, { values, other }: Values, type: Chart["type"] = "bar"): Chart => {
  const rest = values.slice(TOP).reduce((sum, { count }) => sum + count, other)
  const shown = values.slice(0, TOP)
  return {
    id,
    title,
    type,
    horizontal: true,
    labels: [...shown.map(({ name }) => name), ...(rest > 0 ? ["(others)"] : [])],
    datasets: [{ label: "Requests", data: [...shown.map(({ count }) => count), ...(rest > 0 ? [rest] : [])] }]
  }
}

const traffic = (summary: SummaryJson): ReadonlyArray<Chart> => {
  if (summary.timeline === null) return []
  const { unit, buckets } = summary.timeline
  const labels = buckets.map((bucket) => bucket.start)
  const types = [...new Set(buckets.flatMap((bucket) => Object.keys(bucket.deviceType)))].sort()
  return [
    {
      id: "traffic",
      title: `Requests by ${unit}: humans and bots`,
      type: "bar",
      horizontal: false,
      labels,
      datasets: [
        { label: "Humans", data: buckets.map((bucket) => bucket.humans) },
        { label: "Bots", data: buckets.map((bucket) => bucket.bots) }
      ]
    },
    {
      id: "traffic-devices",
      title: `Humans by ${unit} and device type`,
      type: "bar",
      horizontal: false,
      labels,
      datasets: types.map((type) => ({ label: type, data: buckets.map((bucket) => bucket.deviceType[type] ?? 0) }))
    }
  ]
}

export const sections = (summary: SummaryJson): ReadonlyArray<Section> => {
  const { human, bot } = summary
  const logged = summary.timeline !== null
  return [
    {
      title: "Humans and bots",
      note: "Requests whose user agent parsed, by whether it is a bot's.",
      charts: [
        {
          id: "audience",
          title: "Humans and bots",
          type: "doughnut",
          horizontal: false,
          labels: ["Humans", "Bots"],
          datasets: [{ label: "Requests", data: [summary.humans, summary.bots] }]
        },
        ...traffic(summary)
      ]
    },
    {
      title: "Humans",
      note: "Requests from browsers and apps, bots apart.",
      charts: [
        ranked("browser-version", "Browsers and major versions", human.browserVersion),
        ranked("os-version", "Operating systems and versions", human.osVersion),
        ranked("device-type", "Device types", human.deviceType, "doughnut"),
        ranked("vendor", "Vendors", human.vendor),
        ranked("model", "Models", human.model),
        ...(logged ? [ranked("human-path", "Paths", human.path), ranked("human-status", "Statuses", human.status)] : [])
      ]
    },
    {
      title: "Bots",
      note: "Crawlers, monitors, scanners, libraries and tools.",
      charts: [
        ranked("bot-category", "Bot categories", bot.category, "doughnut"),
        ranked("bot-name", "Bots", bot.name),
        ...(logged ? [ranked("bot-path", "Paths", bot.path), ranked("bot-status", "Statuses", bot.status)] : [])
      ]
    }
  ]
}
