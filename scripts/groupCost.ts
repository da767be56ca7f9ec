/**
 * What parsing many strings a group at a time saves (src/Tools/UserAgent/parse/Groups.ts), in one process:
 *
 *   bun scripts/groupCost.ts [corpus.jsonl | traffic | crawlers ...] [--rounds N]
 *
 * Over the distinct strings of the corpora (default: `traffic` and `crawlers`), this tree's parse with the device
 * database runs both ways: each string's two passes in turn (`parseUserAgent`, as a single request), and groups of
 * GROUP_CHARACTERS read then finished (`readUserAgent` over the group, then `finishParse`, as a batch and the command
 * run). The two alternate block by block in each round, so that the machine's noise falls on both alike. Prints the
 * median CPU µs per string of each over the rounds, and their ratio. Both give the same answers (tested:
 * test/Tools/UserAgent/Service.test.ts).
 */
import { Effect } from "effect"
import { loadLookups } from "../src/Tools/UserAgent/device/Database.ts"
import { groupsOf } from "../src/Tools/UserAgent/parse/Groups.ts"
import { finishParse, parseUserAgent, readUserAgent } from "../src/Tools/UserAgent/parse/Normalise.ts"
import { crawlerCorpus, readJsonLines, trafficCorpus } from "./corpora.ts"

const args = process.argv.slice(2)
const roundsAt = args.indexOf("--rounds")
const rounds = roundsAt === -1 ? 7 : Number(args[roundsAt + 1])
const given = args.filter((arg, i) => !arg.startsWith("--") && (roundsAt === -1 || i !== roundsAt + 1))
const corpusOf = (name: string) =>
  name === "traffic" ? trafficCorpus() : name === "crawlers" ? crawlerCorpus() : readJsonLines(name)
const names = given.length > 0 ? given : ["traffic", "crawlers"]
const strings = [...new Set(names.flatMap((name) => corpusOf(name).cases.map((c) => c.ua)))]

const { identify } = await Effect.runPromise(loadLookups)
const options = { devices: identify }
const oneByOne = (block: ReadonlyArray<string>) => {
  for (const ua of block) parseUserAgent(ua, undefined, options)
}
const grouped = (block: ReadonlyArray<string>) => {
  for (const group of groupsOf(block)) {
    const readings = group.map((ua) => readUserAgent(ua))
    group.forEach((ua, i) => finishParse(ua, readings[i]!, options))
  }
}

// CPU time (not wall time: the machine is shared) of one way over a block
const cpu = (way: (block: ReadonlyArray<string>) => void, block: ReadonlyArray<string>): number => {
  const start = process.cpuUsage()
  way(block)
  const used = process.cpuUsage(start)
  return used.user + used.system
}

// a warm-up pass each, then blocks of as many strings as a block of the command's input holds new at its start
cpu(oneByOne, strings)
cpu(grouped, strings)
const BLOCK = 256
const times: { single: Array<number>; grouped: Array<number> } = { single: [], grouped: [] }
for (let round = 0; round < rounds; round++) {
  let [s, g] = [0, 0]
  for (let i = 0; i < strings.length; i += BLOCK) {
    const block = strings.slice(i, i + BLOCK)
    if ((i / BLOCK + round) % 2 === 0) {
      s += cpu(oneByOne, block)
      g += cpu(grouped, block)
    } else {
      g += cpu(grouped, block)
      s += cpu(oneByOne, block)
    }
  }
  times.single.push(s / strings.length)
  times.grouped.push(g / strings.length)
}
const median = (xs: Array<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const [s, g] = [median(times.single), median(times.grouped)]
console.log(`${strings.length} distinct strings (${names.join(", ")}), ${rounds} rounds`)
console.log(
  `a string at a time: ${s.toFixed(1)} µs CPU per string; in groups: ${g.toFixed(1)} µs; ratio x${(g / s).toFixed(3)}`
)
process.exit(0)
