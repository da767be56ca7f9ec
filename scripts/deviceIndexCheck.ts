/**
 * Checks that the device database's index (src/Tools/UserAgent/PatternIndex.ts) gives what a scan of every pattern in
 * order gives, on the distinct strings of the given corpora (default: every `scripts/.corpora/*.jsonl`):
 *
 *   bun scripts/deviceIndexCheck.ts [corpus.jsonl ...]
 *
 * Prints how many strings were compared and each difference (none expected).
 */
import { readdirSync, readFileSync } from "node:fs"
import { identifyDevice, scanDevice } from "../src/Tools/UserAgent/DeviceDatabase.ts"

const corpora = new URL("./.corpora/", import.meta.url).pathname
const given = process.argv.slice(2)
const files =
  given.length > 0
    ? given
    : readdirSync(corpora)
        .filter((file) => file.endsWith(".jsonl"))
        .map((file) => `${corpora}${file}`)
const strings = new Set<string>()
for (const file of files)
  for (const line of readFileSync(file, "utf8").split("\n")) if (line.trim() !== "") strings.add(JSON.parse(line).ua)
let differences = 0
for (const ua of strings) {
  const [indexed, scanned] = [identifyDevice(ua), scanDevice(ua)]
  if (JSON.stringify(indexed) !== JSON.stringify(scanned)) {
    differences++
    console.log(JSON.stringify({ ua, indexed, scanned }))
  }
}
console.log(`${strings.size} distinct strings, ${differences} differences between the index and a full scan`)
