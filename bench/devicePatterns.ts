/**
 * What a compiled pattern of the device database costs, the figure behind device/Patterns.ts's `RECENT`:
 *
 *   bun bench/devicePatterns.ts [count]
 *
 * Compiles the first `count` (default 8,000) model patterns of the device database as the service does, runs each
 * once on a phone's string, and prints the CPU time a pattern (compile and first run, then a second run) and the
 * resident memory they hold (after a full collection), then what is left once they are dropped. Ratios, not times,
 * are what compare across machines: a first run against a second, kept against dropped.
 */
import { readFileSync } from "node:fs"
import { devicePattern } from "../src/Tools/UserAgent/device/Patterns.ts"

const count = Number(process.argv[2] ?? 8000)
// the model patterns of node-device-detector's mobiles.js (its object literal is JSON), in order
const mobiles = readFileSync(Bun.resolveSync("node-device-detector/regexes/device/mobiles.js", import.meta.dir), "utf8")
const brands = JSON.parse(mobiles.slice(mobiles.indexOf("{"), mobiles.lastIndexOf("}") + 1)) as Record<
  string,
  { models?: Array<{ regex: string }> }
>
const sources = Object.values(brands).flatMap((brand) => (brand.models ?? []).map((model) => model.regex))
sources.length = Math.min(sources.length, count)

const rssKb = (): number => {
  Bun.gc(true)
  return Number(/VmRSS:\s*(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1])
}
const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage()
  return user + system
}
const ua =
  "Mozilla/5.0 (Linux; Android 14; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"

const before = rssKb()
let cpu = cpuMicros()
const kept = sources.map((source) => {
  const pattern = devicePattern(source)
  pattern.exec(ua)
  return pattern
})
const first = (cpuMicros() - cpu) / kept.length
cpu = cpuMicros()
for (const pattern of kept) pattern.exec(ua)
const again = (cpuMicros() - cpu) / kept.length
const held = rssKb() - before
kept.length = 0
const left = rssKb() - before
console.log(`${sources.length} model patterns of the device database`)
console.log(
  `  compile and first run: ${first.toFixed(1)} µs CPU a pattern; a second run: ${again.toFixed(2)} µs (x${(first / again).toFixed(0)})`
)
console.log(`  held while kept: ${(held / 1024).toFixed(1)} MB (${(held / sources.length).toFixed(2)} KB a pattern)`)
console.log(`  left once dropped and collected: ${(left / 1024).toFixed(1)} MB`)
