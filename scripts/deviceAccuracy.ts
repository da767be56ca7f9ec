/**
 * Device vendor and marketing name on the brand-labelled corpora of `scripts/deviceCorpora.ts`:
 *
 *   bun scripts/deviceAccuracy.ts [devices-*.jsonl ...]
 *
 * Per corpus: how often `device.vendor` is the labelled brand (compared without case, spaces or punctuation), for
 * the plain library (`rules: false`) and the service, and the share of phones and tablets whose `device.name` is
 * known (not "Unknown").
 */
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { loadLookups } from "../src/Tools/UserAgent/device/Database.ts"
import { parseUserAgent } from "../src/Tools/UserAgent/parse/Normalise.ts"
import { builtCorpora } from "./corpora.ts"

interface DeviceRow {
  readonly ua: string
  readonly vendor: string
  readonly kind: "phone" | "tablet" | "other"
}

const { identify } = await Effect.runPromise(loadLookups)
const files = builtCorpora(process.argv.slice(2), /^devices-.*\.jsonl$/)

const plain = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, "")
const percent = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)}%`

for (const file of files) {
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as DeviceRow)
  let [raw, rules, handsets, named] = [0, 0, 0, 0]
  for (const row of rows) {
    const want = plain(row.vendor)
    if (plain(parseUserAgent(row.ua, undefined, { rules: false }).device.vendor) === want) raw++
    const device = parseUserAgent(row.ua, undefined, { devices: identify }).device as { vendor: string; name?: string }
    if (plain(device.vendor) === want) rules++
    if (row.kind !== "other") {
      handsets++
      if (device.name !== undefined && device.name !== "Unknown") named++
    }
  }
  console.log(`${file} (${rows.length} strings, ${handsets} phones and tablets)`)
  console.log(`  vendor right: library ${percent(raw, rows.length)}, service ${percent(rules, rows.length)}`)
  console.log(`  name known (phones and tablets): ${percent(named, handsets)}`)
}
