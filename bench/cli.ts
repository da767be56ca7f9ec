/**
 * The offline `parse --log combined` over a 1,000,000-line access log: lines/s and peak RSS. Two logs are written to a
 * temporary folder (removed at the end, never in the tree) from the bench's own user agents (`workloads.ts`):
 * - cached: ua-mix's strings (drawn by real-traffic weight: popular ones repeat, so the parse cache answers most);
 * - cold: ua-cold's 20,000 distinct strings cycled (more than the cache holds: every line is a parse).
 * Each run is the command as a real process under `/usr/bin/time` (peak RSS is its maximum resident set), stdout to
 * /dev/null. A last run reads the cached log through stdin, and one parses 5x the lines, to show memory stays flat.
 *
 *   bun bench/cli.ts [--lines N] [--runs N] [--binary dist/tools-api]
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { count, main, parseFlags } from "./lib/args.ts"
import { median } from "./lib/stats.ts"
import { requestLines } from "./workloads.ts"

const usage = "bun bench/cli.ts [--lines N] [--runs N] [--binary PATH]\n"
const options = { lines: 1_000_000, runs: 1, binary: undefined as string | undefined }
parseFlags(process.argv.slice(2), usage, {
  "--lines": (value, flag) => (options.lines = count(flag, value())),
  "--runs": (value, flag) => (options.runs = count(flag, value())),
  "--binary": (value) => (options.binary = value())
})

/** The user agents of a workload's parse requests, in the workload's order. */
const userAgents = (workload: "ua-mix" | "ua-cold"): Array<string> =>
  requestLines(workload).flatMap((line) => {
    const body = JSON.parse(line.split("\t")[1]!) as { operation: string; userAgent?: string }
    return body.operation === "parse" && body.userAgent !== undefined ? [body.userAgent] : []
  })

/** As nginx writes it: `"` and `\` inside a quoted field escaped. */
const quoted = (text: string) => `"${text.replace(/["\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`)}"`

const writeLog = async (path: string, agents: ReadonlyArray<string>, lines: number) => {
  const out = createWriteStream(path)
  for (let i = 0; i < lines; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
    const line = `${ip} - - [26/Nov/2026:12:00:${String(i % 60).padStart(2, "0")} +0000] "GET /page/${i % 997} HTTP/1.1" 200 ${512 + (i % 4096)} "https://example.com/" ${quoted(agents[i % agents.length]!)}\n`
    if (!out.write(line)) await new Promise((resolve) => out.once("drain", resolve))
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
}

const command = options.binary === undefined ? [process.execPath, "src/main.ts"] : [options.binary]

interface Run {
  readonly seconds: number
  readonly peakMb: number
  readonly cpuSeconds: number
}

const run = async (args: ReadonlyArray<string>, stdinPath?: string): Promise<Run> => {
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%e %M %U %S", ...command, "parse", "--log", "combined", ...args], {
    stdin: stdinPath === undefined ? "ignore" : Bun.file(stdinPath),
    stdout: "ignore",
    stderr: "pipe"
  })
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`parse exited ${code}: ${stderr}`)
  const [elapsed, maxKb, user, system] = stderr.trim().split("\n").at(-1)!.split(" ").map(Number)
  return { seconds: elapsed!, peakMb: maxKb! / 1024, cpuSeconds: user! + system! }
}

const report = (name: string, lines: number, bytes: number, runs: ReadonlyArray<Run>) => {
  const seconds = median(runs.map((r) => r.seconds))
  const peak = Math.max(...runs.map((r) => r.peakMb))
  const cpu = median(runs.map((r) => r.cpuSeconds))
  console.log(
    `${name.padEnd(22)} ${lines.toLocaleString("en").padStart(10)} lines  ${(bytes / 2 ** 20).toFixed(0).padStart(5)} MB  ` +
      `${Math.round(lines / seconds)
        .toLocaleString("en")
        .padStart(8)} lines/s  ${seconds.toFixed(1).padStart(6)} s  ` +
      `CPU ${cpu.toFixed(1)} s (${Math.round(lines / cpu).toLocaleString("en")} lines/CPU-s)  peak RSS ${peak.toFixed(0)} MB`
  )
}

await main(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-cli-bench-"))
  try {
    const logs = { cached: join(dir, "cached.log"), cold: join(dir, "cold.log"), long: join(dir, "long.log") }
    await writeLog(logs.cached, userAgents("ua-mix"), options.lines)
    await writeLog(logs.cold, userAgents("ua-cold"), options.lines)
    await writeLog(logs.long, userAgents("ua-mix"), options.lines * 5)
    for (const [name, path] of [
      ["cached (file)", logs.cached],
      ["cold (file)", logs.cold]
    ] as const) {
      const runs: Array<Run> = []
      for (let i = 0; i < options.runs; i++) runs.push(await run([path]))
      report(name, options.lines, statSync(path).size, runs)
    }
    report("cached (stdin)", options.lines, statSync(logs.cached).size, [await run([], logs.cached)])
    report("cached x5 (file)", options.lines * 5, statSync(logs.long).size, [await run([logs.long])])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
