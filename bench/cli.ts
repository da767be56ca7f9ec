/**
 * The offline `parse --log combined` over a 1,000,000-line access log: lines/s and peak RSS. Two logs are written to a
 * temporary folder (removed at the end, never in the tree) by `accessLog.ts`: cached (ua-mix: popular strings repeat,
 * so the parse cache answers most lines) and cold (ua-cold's 20,000 distinct strings: every line is a parse).
 * Each run is the command as a real process under `/usr/bin/time` (peak RSS is its maximum resident set), stdout to
 * /dev/null. On each log, the baseline (`parse --log combined`, one result line a line) runs beside `--summary` (and
 * `--summary --json`, and with `--before DIR` that checkout's source, e.g. main's), round by round, and each is
 * reported as ratios to the baseline of its round: the machine's noise hits both alike. The cached log is also read
 * through stdin, and 5x its lines (baseline and summary, once) show whether memory follows the input.
 *
 *   bun bench/cli.ts [--lines N] [--runs N] [--binary dist/tools-api] [--before DIR]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { writeLog } from "./accessLog.ts"
import { count, main, parseFlags } from "./lib/args.ts"
import { median } from "./lib/stats.ts"

const usage = "bun bench/cli.ts [--lines N] [--runs N] [--binary PATH] [--before DIR]\n"
const options = {
  lines: 1_000_000,
  runs: 1,
  binary: undefined as string | undefined,
  before: undefined as string | undefined
}
parseFlags(process.argv.slice(2), usage, {
  "--lines": (value, flag) => (options.lines = count(flag, value())),
  "--runs": (value, flag) => (options.runs = count(flag, value())),
  "--binary": (value) => (options.binary = value()),
  "--before": (value) => (options.before = value())
})

const command = options.binary === undefined ? [process.execPath, "src/main.ts"] : [options.binary]

interface Run {
  readonly seconds: number
  readonly peakMb: number
  readonly cpuSeconds: number
}

interface Variant {
  readonly name: string
  readonly args: ReadonlyArray<string>
  /** Another checkout's source: its run may exit 1, as before `-` was skipped it was a failed line. */
  readonly source?: string
  readonly stdin?: boolean
}

const run = async (variant: Variant, path: string): Promise<Run> => {
  const stdin = variant.stdin === true
  const program = variant.source === undefined ? command : [process.execPath, join(variant.source, "src/main.ts")]
  const args = ["parse", "--log", "combined", ...variant.args, ...(stdin ? [] : [path])]
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%e %M %U %S", ...program, ...args], {
    stdin: stdin ? Bun.file(path) : "ignore",
    stdout: "ignore",
    stderr: "pipe"
  })
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
  if (code !== 0 && !(code === 1 && variant.source !== undefined)) throw new Error(`parse exited ${code}: ${stderr}`)
  const [elapsed, maxKb, user, system] = stderr.trim().split("\n").at(-1)!.split(" ").map(Number)
  return { seconds: elapsed!, peakMb: maxKb! / 1024, cpuSeconds: user! + system! }
}

const ratio = (xs: ReadonlyArray<number>) => `x${median(xs).toFixed(2)}`

/** One row: medians over the rounds, and the median of each round's ratio to that round's baseline. */
const report = (name: string, lines: number, bytes: number, runs: ReadonlyArray<Run>, base?: ReadonlyArray<Run>) => {
  const seconds = median(runs.map((r) => r.seconds))
  const cpu = median(runs.map((r) => r.cpuSeconds))
  const vs =
    base === undefined
      ? "baseline"
      : `lines/s ${ratio(runs.map((r, i) => base[i]!.seconds / r.seconds))}, ` +
        `lines/CPU-s ${ratio(runs.map((r, i) => base[i]!.cpuSeconds / r.cpuSeconds))}`
  console.log(
    `${name.padEnd(30)} ${lines.toLocaleString("en").padStart(10)} lines  ${(bytes / 2 ** 20).toFixed(0).padStart(5)} MB  ` +
      `${Math.round(lines / seconds)
        .toLocaleString("en")
        .padStart(8)} lines/s  CPU ${cpu.toFixed(1).padStart(5)} s  ` +
      `peak RSS ${Math.max(...runs.map((r) => r.peakMb)).toFixed(0)} MB  ${vs}`
  )
}

/** Each variant on one log, round by round; the first is the baseline. */
const compare = async (log: string, path: string, lines: number, variants: ReadonlyArray<Variant>, rounds: number) => {
  const runs = variants.map((): Array<Run> => [])
  for (let round = 0; round < rounds; round++) {
    for (const [i, variant] of variants.entries()) runs[i]!.push(await run(variant, path))
  }
  variants.forEach((variant, i) =>
    report(`${log}: ${variant.name}`, lines, statSync(path).size, runs[i]!, i === 0 ? undefined : runs[0])
  )
}

const baseline: Variant = { name: "lines", args: [] }
const summary: Variant = { name: "--summary", args: ["--summary"] }

await main(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-cli-bench-"))
  try {
    const logs = { cached: join(dir, "cached.log"), cold: join(dir, "cold.log"), long: join(dir, "long.log") }
    await writeLog(logs.cached, "ua-mix", options.lines)
    await writeLog(logs.cold, "ua-cold", options.lines)
    await writeLog(logs.long, "ua-mix", options.lines * 5)
    const before = options.before === undefined ? [] : [{ name: "lines, before", args: [], source: options.before }]
    const json = { name: "--summary --json", args: ["--summary", "--json"] }
    const stdin = { name: "lines, from stdin", args: [], stdin: true }
    await compare("cached", logs.cached, options.lines, [baseline, summary, json, stdin, ...before], options.runs)
    await compare("cold", logs.cold, options.lines, [baseline, summary, ...before], options.runs)
    await compare("cached x5", logs.long, options.lines * 5, [baseline, summary], 1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
