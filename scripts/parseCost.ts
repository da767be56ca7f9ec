/**
 * Cost of an uncached parse, this tree against git revision REV, in one process:
 *
 *   bun scripts/parseCost.ts REV [corpus.jsonl ...] [--rounds N]
 *
 * REV's `src/` is extracted into `scripts/.corpora/rev-REV/` (git-ignored, so it resolves this tree's node_modules)
 * and both `parseUserAgent` functions run over the distinct strings of the corpora (default: every
 * `scripts/.corpora/*.jsonl`), alternating in rounds so that the machine's noise falls on both alike. Prints the
 * median µs per parse of each side over the rounds and their ratio.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync } from "node:fs"
import { parseUserAgent } from "../src/Domain/UserAgentNormalise.ts"
import { readJsonLines } from "./corpora.ts"

const args = process.argv.slice(2)
const roundsAt = args.indexOf("--rounds")
const rounds = roundsAt === -1 ? 7 : Number(args[roundsAt + 1])
const [rev, ...given] = args.filter((arg, i) => !arg.startsWith("--") && (roundsAt === -1 || i !== roundsAt + 1))
if (rev === undefined) {
  console.error("usage: bun scripts/parseCost.ts REV [corpus.jsonl ...] [--rounds N]")
  process.exit(2)
}

const corpora = new URL("./.corpora/", import.meta.url).pathname
const dir = `${corpora}rev-${rev}`
if (!existsSync(`${dir}/src`)) {
  mkdirSync(dir, { recursive: true })
  const archive = execFileSync("git", ["archive", rev, "src"], { maxBuffer: 1 << 28 })
  execFileSync("tar", ["-x", "-C", dir], { input: archive })
}
const before: typeof parseUserAgent = (await import(`${dir}/src/Domain/UserAgentNormalise.ts`)).parseUserAgent

const files =
  given.length > 0
    ? given
    : readdirSync(corpora)
        .filter((file) => file.endsWith(".jsonl"))
        .map((file) => `${corpora}${file}`)
const strings = [...new Set(files.flatMap((file) => readJsonLines(file).cases.map((c) => c.ua)))]

const pass = (parse: typeof parseUserAgent): number => {
  const start = Bun.nanoseconds()
  for (const ua of strings) parse(ua)
  return (Bun.nanoseconds() - start) / 1000 / strings.length
}

// one warm-up pass each, then alternating rounds
pass(before)
pass(parseUserAgent)
const times: { before: Array<number>; after: Array<number> } = { before: [], after: [] }
for (let round = 0; round < rounds; round++) {
  if (round % 2 === 0) {
    times.before.push(pass(before))
    times.after.push(pass(parseUserAgent))
  } else {
    times.after.push(pass(parseUserAgent))
    times.before.push(pass(before))
  }
}
const median = (xs: Array<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const [b, a] = [median(times.before), median(times.after)]
console.log(`${strings.length} distinct strings, ${rounds} rounds`)
console.log(
  `${rev}: ${b.toFixed(1)} µs per parse; this tree: ${a.toFixed(1)} µs per parse; ratio x${(a / b).toFixed(3)}`
)
