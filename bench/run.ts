/**
 * `bun run bench`: the service against a bare-Bun baseline (bench/baseline.ts) in the same run, workload by workload,
 * with wrk on loopback. Prints requests/s, p50/p99 latency and peak RSS of each, and the ratio service/baseline.
 * Also the time from start to first response (`startup`) of the source, the compiled binary and the baseline.
 * See bench/README.md; the parts are in bench/run/ and bench/lib/.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { main } from "./lib/args.ts"
import { ensureWrk } from "./lib/wrk.ts"
import { measure, type Measured } from "./run/measure.ts"
import { parseOptions, type Target, TARGET_NAMES } from "./run/options.ts"
import { roundLine, summarise } from "./run/report.ts"
import { measureStartup, type Startup, startupLine } from "./run/startup.ts"
import { sampleCheck } from "./run/targets.ts"
import { requestLines, type Workload } from "./workloads.ts"

await main(async () => {
  const options = parseOptions(process.argv.slice(2))
  const loads = options.workloads.filter((w): w is Workload => w !== "startup")
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown CPU"
  console.log(
    `bench: ${navigator.hardwareConcurrency} cores, ${cpu}, Bun ${Bun.version}; ` +
      `${options.duration}s measured after ${options.warmup}s warm-up, ${options.connections} connections, ` +
      `${options.rounds} round(s)` +
      (Object.keys(options.env).length > 0 ? `; service env ${JSON.stringify(options.env)}` : "")
  )
  if (options.logs !== undefined) mkdirSync(options.logs, { recursive: true })
  const results: Array<Measured> = []
  let startup: Array<Startup> = []
  const dir = mkdtempSync(join(tmpdir(), "tools-api-bench-"))
  try {
    if (loads.length > 0) {
      const wrk = ensureWrk()
      const files = new Map<Workload, string>()
      for (const workload of loads) {
        const file = join(dir, `${workload}.txt`)
        writeFileSync(file, requestLines(workload).join("\n") + "\n")
        files.set(workload, file)
      }
      const targets: Array<Target> =
        options.only !== undefined
          ? [options.only]
          : TARGET_NAMES.filter(
              (target) =>
                (target !== "floor" || options.floor) && (target !== "earlier" || options.compare !== undefined)
            )
      if (targets.length > 1) await sampleCheck(files, options, targets, dir)
      for (const workload of loads) {
        for (let round = 1; round <= options.rounds; round++) {
          // alternating order, so that neither target always runs first on a machine that drifts
          for (const target of round % 2 === 1 ? targets : [...targets].reverse()) {
            const m = await measure(wrk, workload, files.get(workload)!, target, round, options, dir)
            console.log(roundLine(m))
            results.push(m)
          }
        }
      }
    }
    if (options.workloads.includes("startup")) startup = await measureStartup(options)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  console.log("")
  const { lines, rows } = summarise(results, options)
  if (results.length > 0) for (const line of lines) console.log(line)
  for (const s of startup) console.log(startupLine(s))
  if (options.json !== undefined) {
    writeFileSync(options.json, JSON.stringify({ options, results, summary: rows, startup }, null, 2) + "\n")
  }
  if (results.some((r) => r.errors > 0)) {
    console.log("bench: some requests failed (see errors above); the figures are not comparable")
    process.exitCode = 1
  }
})
