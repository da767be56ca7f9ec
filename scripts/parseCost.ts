/**
 * Cost of an uncached parse, this tree against git revision REV, in one process:
 *
 *   bun scripts/parseCost.ts REV [corpus.jsonl | traffic | crawlers ...] [--rounds N]
 *
 * REV's `src/` (and its device database's generator, which writes REV's database there) is extracted into
 * `scripts/.corpora/rev-REV/` (git-ignored, so it resolves this tree's node_modules), and both `parseUserAgent`
 * functions, each with its own device database, run over the distinct strings of the corpora (default: every
 * `scripts/.corpora/*.jsonl`), alternating slice by slice in each round so that the machine's noise falls on both
 * alike. Prints the median CPU µs per parse of each side over the rounds, their ratio, and each as a multiple of the
 * plain library (`new UAParser(ua).getResult()`, timed alongside).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { Effect } from "effect"
import { UAParser } from "ua-parser-js"
import { loadLookups } from "../src/Tools/UserAgent/device/Database.ts"
import { parseUserAgent } from "../src/Tools/UserAgent/parse/Normalise.ts"
import { builtCorpora, crawlerCorpus, readJsonLines, trafficCorpus } from "./corpora.ts"

const args = process.argv.slice(2)
const roundsAt = args.indexOf("--rounds")
const rounds = roundsAt === -1 ? 7 : Number(args[roundsAt + 1])
const [rev, ...given] = args.filter((arg, i) => !arg.startsWith("--") && (roundsAt === -1 || i !== roundsAt + 1))
if (rev === undefined) {
  console.error("usage: bun scripts/parseCost.ts REV [corpus.jsonl | traffic | crawlers ...] [--rounds N]")
  process.exit(2)
}

const corpora = new URL("./.corpora/", import.meta.url).pathname
const dir = `${corpora}rev-${rev}`
const generator = "scripts/deviceData.ts"
const hasGenerator = Bun.spawnSync(["git", "cat-file", "-e", `${rev}:${generator}`]).exitCode === 0
if (!existsSync(`${dir}/src`)) {
  mkdirSync(dir, { recursive: true })
  // the generator with the scripts it imports (scripts/devicePatternCost.ts since the patterns' bound)
  const archive = execFileSync("git", ["archive", rev, "src", ...(hasGenerator ? ["scripts"] : [])], {
    maxBuffer: 1 << 28
  })
  execFileSync("tar", ["-x", "-C", dir], { input: archive })
}
if (hasGenerator) execFileSync(process.execPath, [`${dir}/${generator}`], { stdio: "inherit" })
// the parser moved from src/Domain to src/Tools/UserAgent, then to its parse/: any place, as REV has it
const module = [
  `${dir}/src/Tools/UserAgent/parse/Normalise.ts`,
  `${dir}/src/Tools/UserAgent/UserAgentNormalise.ts`,
  `${dir}/src/Domain/UserAgentNormalise.ts`
].find(existsSync)
const parseBefore: typeof parseUserAgent = (await import(module!)).parseUserAgent
// REV's device database: a service's lookup since it has one, else its parser's own
const revDatabase = `${dir}/src/Tools/UserAgent/device/Database.ts`
const revLookups: typeof loadLookups | undefined = existsSync(revDatabase)
  ? (await import(revDatabase)).loadLookups
  : undefined
const revDevices = revLookups === undefined ? {} : { devices: (await Effect.runPromise(revLookups)).identify }
const before = (ua: string) => parseBefore(ua, undefined, revDevices)
const { identify } = await Effect.runPromise(loadLookups)
const after = (ua: string) => parseUserAgent(ua, undefined, { devices: identify })

// `traffic` and `crawlers` name the packages' corpora (corpora.ts), read at run time; any other name is a file
const corpusOf = (name: string) =>
  name === "traffic" ? trafficCorpus() : name === "crawlers" ? crawlerCorpus() : readJsonLines(name)
const strings = [...new Set(builtCorpora(given).flatMap((name) => corpusOf(name).cases.map((c) => c.ua)))]

// the plain library, for the ratio the cost targets are stated in
const library = (ua: string) => new UAParser(ua).getResult()

// CPU time (not wall time: the machine is shared) of one parse of each string in a slice
const cpu = (parse: (ua: string) => unknown, slice: ReadonlyArray<string>): number => {
  const start = process.cpuUsage()
  for (const ua of slice) parse(ua)
  const used = process.cpuUsage(start)
  return used.user + used.system
}

// a warm-up pass each, then rounds in which the two alternate slice by slice, so that load and garbage collection
// fall on both alike
cpu(before, strings)
cpu(after, strings)
const slice = 500
cpu(library, strings)
const times: { before: Array<number>; after: Array<number>; library: Array<number> } = {
  before: [],
  after: [],
  library: []
}
for (let round = 0; round < rounds; round++) {
  let [b, a, l] = [0, 0, 0]
  for (let i = 0; i < strings.length; i += slice) {
    const part = strings.slice(i, i + slice)
    if ((i / slice + round) % 2 === 0) {
      b += cpu(before, part)
      a += cpu(after, part)
      l += cpu(library, part)
    } else {
      l += cpu(library, part)
      a += cpu(after, part)
      b += cpu(before, part)
    }
  }
  times.before.push(b / strings.length)
  times.after.push(a / strings.length)
  times.library.push(l / strings.length)
}
const median = (xs: Array<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const [b, a, l] = [median(times.before), median(times.after), median(times.library)]
console.log(`${strings.length} distinct strings, ${rounds} rounds`)
console.log(
  `${rev}: ${b.toFixed(1)} µs CPU per parse; this tree: ${a.toFixed(1)} µs CPU per parse; ratio x${(a / b).toFixed(3)}`
)
console.log(
  `plain ua-parser-js: ${l.toFixed(1)} µs; ${rev} x${(b / l).toFixed(2)} of it, this tree x${(a / l).toFixed(2)}`
)
