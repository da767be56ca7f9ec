/**
 * Checks that the device database's index (src/Tools/UserAgent/PatternIndex.ts) gives what a scan of every pattern in
 * order gives, on the distinct strings of the given corpora (default: every `scripts/.corpora/*.jsonl`):
 *
 *   bun scripts/deviceIndexCheck.ts [corpus.jsonl ...]
 *
 * Prints how many strings were compared and each difference (none expected).
 */
import { Effect } from "effect"
import { loadLookups } from "../src/Tools/UserAgent/device/Database.ts"
import { builtCorpora, readJsonLines } from "./corpora.ts"

const { identify, scan } = await Effect.runPromise(loadLookups)
const strings = new Set(
  builtCorpora(process.argv.slice(2)).flatMap((file) => readJsonLines(file).cases.map((c) => c.ua))
)
let differences = 0
for (const ua of strings) {
  const [indexed, scanned] = [identify(ua), scan(ua)]
  if (JSON.stringify(indexed) !== JSON.stringify(scanned)) {
    differences++
    console.log(JSON.stringify({ ua, indexed, scanned }))
  }
}
console.log(`${strings.size} distinct strings, ${differences} differences between the index and a full scan`)
