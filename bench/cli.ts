/**
 * `parse --log combined` beside the plain loop (`../shared/bench/cli-reference.ts`: ua-parser-js behind a Map cache,
 * one JSON line a log line), in one run, on logs written at run time into a temporary folder by `realisticLog.ts`:
 * - realistic: `--lines` lines (1,000,000) drawing 56,000 distinct agents from public corpora by a Zipf law;
 * - repeating: 100,000 lines of 2,000 agents.
 * Each round runs, one after another: the loop, `--jobs 1`, `--jobs 2`, `--jobs 2 --summary`, `--jobs 1 --summary`;
 * stdout to /dev/null. Wall time, and peak RSS of the whole process tree (the main process and its workers, their
 * resident sets summed, sampled every 50 ms from /proc). Ratios are to the loop of the same round. `--long N` adds a
 * realistic log of N lines (5,000,000) run once with `--jobs 1` and `--jobs 2`, to show whether memory follows it.
 *
 *   bun bench/cli.ts [--lines N] [--runs N] [--long N] [--binary dist/tools-api]
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { count, fail, main, parseFlags } from "./lib/args.ts"
import { median } from "./lib/stats.ts"
import { writeRealisticLog } from "./realisticLog.ts"

const usage = "bun bench/cli.ts [--lines N] [--runs N] [--long N] [--binary PATH]\n"
const options = { lines: 1_000_000, runs: 1, long: 0, binary: undefined as string | undefined }
parseFlags(process.argv.slice(2), usage, {
  "--lines": (value, flag) => (options.lines = count(flag, value())),
  "--runs": (value, flag) => (options.runs = count(flag, value())),
  "--long": (value, flag) => (options.long = count(flag, value())),
  "--binary": (value) => (options.binary = value())
})

// the shared folder beside the project's checkout (../shared), or beside the folder of worktrees holding it
const REFERENCE =
  ["../shared", "../../shared"]
    .map((shared) => resolve(import.meta.dir, "..", shared, "bench/cli-reference.ts"))
    .find((path) => existsSync(path)) ??
  fail("bench/cli.ts: ../shared/bench/cli-reference.ts not found beside the checkout\n")
const tool = options.binary === undefined ? [process.execPath, "src/main.ts"] : [options.binary]

interface Variant {
  readonly name: string
  readonly command: (log: string) => Array<string>
}
const parse = (name: string, args: ReadonlyArray<string>): Variant => ({
  name,
  command: (log) => [...tool, "parse", "--log", "combined", ...args, log]
})
const LOOP: Variant = { name: "loop (cli-reference.ts)", command: (log) => [process.execPath, REFERENCE, log] }

/** The resident set (kB) of `pid` and every process under it. */
const treeRss = (pid: number): number => {
  let kb = 0
  try {
    kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim()
      for (const child of children === "" ? [] : children.split(" ")) kb += treeRss(Number(child))
    }
  } catch {
    // the process ended between two reads
  }
  return kb
}

interface Run {
  readonly seconds: number
  readonly peakMb: number
}

const run = async (variant: Variant, log: string): Promise<Run> => {
  const started = performance.now()
  const proc = Bun.spawn(variant.command(log), { stdin: "ignore", stdout: "ignore", stderr: "ignore" })
  let peak = 0
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(proc.pid))
  }, 50)
  const code = await proc.exited
  clearInterval(sampler)
  if (code !== 0) throw new Error(`${variant.name} exited ${code}`)
  return { seconds: (performance.now() - started) / 1_000, peakMb: peak / 1024 }
}

const compare = async (name: string, log: string, lines: number, variants: ReadonlyArray<Variant>, rounds: number) => {
  const runs = variants.map((): Array<Run> => [])
  for (let round = 0; round < rounds; round++)
    for (const [i, variant] of variants.entries()) runs[i]!.push(await run(variant, log))
  console.log(
    `\n${name}, ${lines.toLocaleString("en")} lines (${options.runs} round(s); medians; ratios to the loop's round)`
  )
  variants.forEach((variant, i) => {
    const own = runs[i]!
    const seconds = median(own.map((r) => r.seconds))
    const ratio = median(own.map((r, round) => runs[0]![round]!.seconds / r.seconds))
    console.log(
      `  ${variant.name.padEnd(26)} ${Math.round(lines / seconds)
        .toLocaleString("en")
        .padStart(8)} lines/s  x${ratio.toFixed(2)}  peak RSS ${Math.max(...own.map((r) => r.peakMb)).toFixed(0)} MB`
    )
  })
}

await main(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-cli-bench-"))
  try {
    const realistic = join(dir, "realistic.log")
    const repeating = join(dir, "repeating.log")
    await writeRealisticLog(realistic, { lines: options.lines, agents: 56_000, days: 2 })
    await writeRealisticLog(repeating, { lines: 100_000, agents: 2_000, days: 1 })
    const variants = [
      LOOP,
      parse("--jobs 1", ["--jobs", "1"]),
      parse("--jobs 2", ["--jobs", "2"]),
      parse("--jobs 2 --summary", ["--jobs", "2", "--summary"]),
      parse("--jobs 1 --summary", ["--jobs", "1", "--summary"])
    ]
    await compare("realistic (56,000 agents, Zipf)", realistic, options.lines, variants, options.runs)
    await compare("repeating (2,000 agents)", repeating, 100_000, variants, options.runs)
    if (options.long > 0) {
      const long = join(dir, "long.log")
      await writeRealisticLog(long, { lines: options.long, agents: 56_000, days: 10 })
      await compare("realistic, long", long, options.long, [LOOP, variants[1]!, variants[2]!], 1)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
