/**
 * Accuracy of the user-agent parser on labelled strings: `bun run accuracy [corpus.jsonl ...] [--verbose]`.
 * Without paths it measures every corpus of `scripts/corpora.ts`. Each figure is shown for the library's answer
 * under the contract's mapping alone ("raw", the plain ua-parser-js with the family map) and with the service's rules
 * ("rules"), per field and per label value, with the difference in points; a field below the library is marked.
 * See scripts/README.md for how to read them.
 */
import { Effect } from "effect"
import { isbot } from "isbot"
import type { UserAgentInfo } from "../src/Tools/UserAgent/Schemas.ts"
import { parseUserAgent } from "../src/Tools/UserAgent/parse/Normalise.ts"
import { loadLookups } from "../src/Tools/UserAgent/device/Database.ts"
import { type Corpus, defaultCorpora, type Labelled, readJsonLines } from "./corpora.ts"

// the service's answer: with the device database, whose class decides the type of a device it names
const { identify } = await Effect.runPromise(loadLookups)

type Field = "browser" | "os" | "deviceType" | "bot"
const fields: ReadonlyArray<Field> = ["browser", "os", "deviceType", "bot"]
const browsers = new Set(["Chrome", "Firefox", "Safari", "Edge", "IE"])
const oses = new Set(["Windows", "macOS", "iOS", "Android", "Linux"])

/** The answer in the labels' vocabulary: a family, or "Other" for any name outside the families. */
const answer = (info: UserAgentInfo, field: Field): string => {
  switch (field) {
    case "browser":
      return browsers.has(info.browser.name) ? info.browser.name : "Other"
    case "os":
      return oses.has(info.os.name) ? info.os.name : "Other"
    case "deviceType":
      return info.device.type
    case "bot":
      return String(info.bot.isBot)
  }
}

interface Tally {
  total: number
  raw: number
  rules: number
}
const tally = (): Tally => ({ total: 0, raw: 0, rules: 0 })

interface Measured {
  /** per field, and per field and label value ("browser=Chrome") */
  readonly tallies: Map<string, Tally>
  readonly misses: Map<Field, Map<string, { count: number; example: string }>>
}

const measure = (cases: ReadonlyArray<Labelled>): Measured => {
  const tallies = new Map<string, Tally>()
  const misses = new Map<Field, Map<string, { count: number; example: string }>>(fields.map((f) => [f, new Map()]))
  const count = (key: string, raw: boolean, rules: boolean) => {
    const t = tallies.get(key) ?? tally()
    t.total++
    if (raw) t.raw++
    if (rules) t.rules++
    tallies.set(key, t)
  }
  for (const c of cases) {
    const raw = parseUserAgent(c.ua, undefined, { rules: false })
    const refined = parseUserAgent(c.ua, undefined, { devices: identify })
    for (const field of fields) {
      const label = c[field]
      if (label === undefined || label === null) continue
      const expected = String(label)
      // the bot flag's baseline is isbot alone, as the library ships it
      const rawRight = (field === "bot" ? String(isbot(c.ua)) : answer(raw, field)) === expected
      const got = answer(refined, field)
      count(field, rawRight, got === expected)
      count(`${field}=${expected}`, rawRight, got === expected)
      if (got === expected) continue
      const key = `${expected} <- ${got}`
      const miss = misses.get(field)!.get(key) ?? { count: 0, example: c.ua }
      miss.count++
      misses.get(field)!.set(key, miss)
    }
  }
  return { tallies, misses }
}

const percent = (n: number, total: number) =>
  total === 0 ? "   n/a" : `${((100 * n) / total).toFixed(1).padStart(5)}%`

// rules - raw in points; a field (not a label value) where the rules fall below the plain library is marked
const row = (label: string, t: Tally, field = false) => {
  const delta = t.total === 0 ? 0 : (100 * (t.rules - t.raw)) / t.total
  const mark = field && t.rules < t.raw ? "  BELOW THE LIBRARY" : ""
  const shown = `${delta >= 0 ? "+" : ""}${delta.toFixed(1)}`.padStart(7)
  return `  ${label.padEnd(26)} ${String(t.total).padStart(6)}   ${percent(t.raw, t.total)}   ${percent(t.rules, t.total)}${shown}${mark}`
}

const report = ({ name, cases }: Corpus, verbose: boolean) => {
  const { tallies, misses } = measure(cases)
  console.log(`\n${name} (${cases.length} strings)`)
  console.log(`  ${"field / label".padEnd(26)} ${"count".padStart(6)}      raw    rules   delta`)
  for (const field of fields) {
    const overall = tallies.get(field)
    if (overall === undefined) continue
    console.log(row(field, overall, true))
    const values = [...tallies].filter(([key]) => key.startsWith(`${field}=`)).sort((a, b) => b[1].total - a[1].total)
    if (values.length > 1) for (const [key, t] of values) console.log(row(`  ${key.slice(field.length + 1)}`, t))
  }
  if (!verbose) return
  for (const [field, byKey] of misses) {
    const top = [...byKey].sort((a, b) => b[1].count - a[1].count).slice(0, 15)
    if (top.length === 0) continue
    console.log(`\n  ${field}: top mismatches (label <- answer)`)
    for (const [key, miss] of top)
      console.log(`    ${String(miss.count).padStart(4)}  ${key.padEnd(28)} ${miss.example.slice(0, 110)}`)
  }
}

const args = process.argv.slice(2)
const given = args.filter((arg) => !arg.startsWith("--"))
const corpora = given.length > 0 ? given.map(readJsonLines) : defaultCorpora()
for (const corpus of corpora) report(corpus, args.includes("--verbose"))
