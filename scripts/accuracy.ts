/**
 * Family accuracy of the user-agent parser on labelled strings: `bun run accuracy [corpus.jsonl ...] [--verbose]`.
 * Without paths it reads the shared uap-core corpus and this repo's own labelled cases. Each figure is shown for
 * the library's answer under the contract's mapping alone ("raw") and with the normalisation rules ("rules").
 * See scripts/README.md for how to read them.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { parseUserAgent } from "../src/Domain/UserAgentNormalise.ts"
import type { UserAgentInfo } from "../src/Domain/UserAgent.ts"

interface Labelled {
  readonly ua: string
  readonly browser?: string | null
  readonly os?: string | null
  readonly deviceType?: string | null
  readonly bot?: boolean | null
}

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

const read = (path: string): ReadonlyArray<Labelled> =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))

interface Tally {
  total: number
  raw: number
  rules: number
  readonly misses: Map<string, { count: number; example: string }>
}

const measure = (cases: ReadonlyArray<Labelled>) => {
  const tallies = new Map<Field, Tally>(fields.map((f) => [f, { total: 0, raw: 0, rules: 0, misses: new Map() }]))
  for (const c of cases) {
    const raw = parseUserAgent(c.ua, undefined, { rules: false })
    const refined = parseUserAgent(c.ua)
    for (const field of fields) {
      const label = c[field]
      if (label === undefined || label === null) continue
      const tally = tallies.get(field)!
      const expected = String(label)
      tally.total++
      if (answer(raw, field) === expected) tally.raw++
      const got = answer(refined, field)
      if (got === expected) {
        tally.rules++
      } else {
        const key = `${expected} <- ${got}`
        const miss = tally.misses.get(key) ?? { count: 0, example: c.ua }
        miss.count++
        tally.misses.set(key, miss)
      }
    }
  }
  return tallies
}

const percent = (n: number, total: number) =>
  total === 0 ? "   n/a" : `${((100 * n) / total).toFixed(1).padStart(5)}%`

const args = process.argv.slice(2)
const verbose = args.includes("--verbose")
const given = args.filter((arg) => !arg.startsWith("--"))
const paths =
  given.length > 0
    ? given
    : [
        // the shared corpus when it sits beside the repository, else the copy in test/fixtures
        [
          new URL("../../shared/corpus/uap.jsonl", import.meta.url),
          new URL("../test/fixtures/uap-core.jsonl", import.meta.url)
        ]
          .map((url) => fileURLToPath(url))
          .find((path) => existsSync(path))!,
        fileURLToPath(new URL("../test/fixtures/labelled-user-agents.jsonl", import.meta.url))
      ]

for (const path of paths) {
  const cases = read(path)
  console.log(`\n${path} (${cases.length} strings)`)
  console.log("  field        labelled      raw    rules")
  const tallies = measure(cases)
  for (const [field, t] of tallies) {
    if (t.total === 0) continue
    console.log(
      `  ${field.padEnd(12)} ${String(t.total).padStart(8)}   ${percent(t.raw, t.total)}   ${percent(t.rules, t.total)}`
    )
  }
  if (!verbose) continue
  for (const [field, t] of tallies) {
    const top = [...t.misses].sort((a, b) => b[1].count - a[1].count).slice(0, 15)
    if (top.length === 0) continue
    console.log(`\n  ${field}: top mismatches (label <- answer)`)
    for (const [key, miss] of top)
      console.log(`    ${String(miss.count).padStart(4)}  ${key.padEnd(28)} ${miss.example.slice(0, 110)}`)
  }
}
