/**
 * What `bun run bench` prints: a line a measured run, then a table a workload and target (means of the rounds) with
 * the ratios between targets against the service's goals, and the same as rows for --json.
 */
import { mean, median, medianInterval } from "../lib/stats.ts"
import { BATCH_SIZE, type Workload, WORKLOADS } from "../workloads.ts"
import type { Measured } from "./measure.ts"
import { type Options, type Target, TARGET_NAMES } from "./options.ts"

/**
 * The service's goals (issue 22): requests/s as a share of the baseline's per workload, p99 at most 2x the
 * baseline's, peak RSS at most 120 MB, and the floor's CPU a request at least 0.8 of the service's on ua-mix and wage
 * (the features cost at most about a quarter of what the framework does).
 */
const GOALS: Partial<Record<Workload, number>> = { "ua-mix": 0.5, "ua-cold": 0.7, wage: 0.5 }
const FLOOR_GOALS: Partial<Record<Workload, number>> = { "ua-mix": 0.8, wage: 0.8 }
const P99_GOAL = 2
const RSS_GOAL_MB = 120

export const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "-")

export const roundLine = (m: Measured): string =>
  `${m.workload} ${m.target} round ${m.round}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, ` +
  `p99 ${m.p99Ms.toFixed(2)} ms, peak RSS ${m.peakRssMb.toFixed(0)} MB, ` +
  `${m.cpuUs.toFixed(0)} µs CPU/request` +
  (m.errors > 0 ? `, ${m.errors} errors (non-2xx, timeouts, socket)` : "")

interface Row {
  readonly rps: number
  /** The fastest round's requests/s: noise from other work on the machine only ever slows a run down. */
  readonly bestRps: number
  readonly p50: number
  readonly p99: number
  readonly rss: number
  readonly cpuUs: number
  readonly errors: number
}

const rowOf = (runs: ReadonlyArray<Measured>): Row => ({
  rps: mean(runs.map((r) => r.rps)),
  bestRps: Math.max(...runs.map((r) => r.rps)),
  p50: mean(runs.map((r) => r.p50Ms)),
  p99: mean(runs.map((r) => r.p99Ms)),
  rss: Math.max(...runs.map((r) => r.peakRssMb)),
  cpuUs: mean(runs.map((r) => r.cpuUs)),
  errors: runs.reduce((a, r) => a + r.errors, 0)
})

const INDENT = "".padEnd(10)

/**
 * ua-batch against ua-mix, target by target, in user agents: a batch request parses BATCH_SIZE strings, a ua-mix
 * request one (1 in 50 a generate), drawn alike, so the cache is as warm in both.
 */
const perUserAgent = (results: ReadonlyArray<Measured>): Array<string> =>
  TARGET_NAMES.flatMap((target) => {
    const batch = results.filter((r) => r.workload === "ua-batch" && r.target === target)
    const single = results.filter((r) => r.workload === "ua-mix" && r.target === target)
    if (batch.length === 0) return []
    const b = rowOf(batch)
    const perSecond = b.rps * BATCH_SIZE
    const line = `${INDENT}${target} ua-batch: ${fixed(perSecond, 0)} user agents/s, ${fixed(b.cpuUs / BATCH_SIZE, 1)} µs CPU each`
    if (single.length === 0) return [line]
    const s = rowOf(single)
    return [
      `${line}; ua-mix: ${fixed(s.rps, 0)}/s, ${fixed(s.cpuUs, 1)} µs CPU each; ` +
        `batch/single: ${fixed(perSecond / s.rps, 1)}x user agents/s, ${fixed(s.cpuUs / (b.cpuUs / BATCH_SIZE), 1)}x less CPU each`
    ]
  })

/** The service's requests/s over the earlier tree's, round by round: each round measures both, one after the other. */
const pairedRatios = (results: ReadonlyArray<Measured>, workload: Workload): Array<number> =>
  results.flatMap((service) => {
    if (service.workload !== workload || service.target !== "service") return []
    const earlier = results.find((r) => r.workload === workload && r.target === "earlier" && r.round === service.round)
    return earlier === undefined ? [] : [service.rps / earlier.rps]
  })

export const summarise = (results: ReadonlyArray<Measured>, options: Options) => {
  const rows: Array<Record<string, unknown>> = []
  const lines: Array<string> = []
  const head = ["workload", "target", "req/s", "p50 ms", "p99 ms", "peak RSS MB", "CPU µs/req", "errors"]
  lines.push(head.map((h, i) => (i < 2 ? h.padEnd(10) : h.padStart(12))).join(""))
  for (const workload of WORKLOADS) {
    const byTarget = new Map<Target, Row>()
    for (const target of TARGET_NAMES) {
      const runs = results.filter((r) => r.workload === workload && r.target === target)
      if (runs.length === 0) continue
      const row = rowOf(runs)
      byTarget.set(target, row)
      rows.push({ workload, target, ...row, rounds: runs.map((r) => Math.round(r.rps)) })
      const cells = [fixed(row.rps, 0), fixed(row.p50, 2), fixed(row.p99, 2), fixed(row.rss, 0), fixed(row.cpuUs, 0)]
      cells.push(String(row.errors))
      lines.push(workload.padEnd(10) + target.padEnd(10) + cells.map((cell) => cell.padStart(12)).join(""))
    }
    const s = byTarget.get("service")
    const b = byTarget.get("baseline")
    const f = byTarget.get("floor")
    if (f !== undefined && b !== undefined) {
      lines.push(
        `${INDENT}floor/baseline: throughput ${(f.rps / b.rps).toFixed(3)}, p99 ${(f.p99 / b.p99).toFixed(2)}x, ` +
          `CPU per request ${(b.cpuUs / f.cpuUs).toFixed(3)} (baseline/floor)`
      )
    }
    if (f !== undefined && s !== undefined) {
      const floorCpu = f.cpuUs / s.cpuUs
      const goal = FLOOR_GOALS[workload]
      lines.push(
        `${INDENT}service/floor: throughput ${(s.rps / f.rps).toFixed(3)}, p99 ${(s.p99 / f.p99).toFixed(2)}x, ` +
          `CPU per request ${floorCpu.toFixed(3)} (floor/service` +
          (goal === undefined ? ")" : `, target >= ${goal}: ${floorCpu >= goal ? "ok" : "MISSED"})`)
      )
      rows.push({ workload, serviceOverFloor: s.rps / f.rps, floorCpuOverService: f.cpuUs / s.cpuUs })
    }
    if (s !== undefined && b !== undefined) {
      const ratio = s.rps / b.rps
      const p99 = s.p99 / b.p99
      const cpu = b.cpuUs / s.cpuUs
      const verdict = (ok: boolean) => (ok ? "ok" : "MISSED")
      const goal = GOALS[workload]
      lines.push(
        `${INDENT}service/baseline: throughput ${ratio.toFixed(3)}` +
          (goal === undefined ? "" : ` (target >= ${goal}: ${verdict(ratio >= goal)})`) +
          ", " +
          `p99 ${p99.toFixed(2)}x (target <= ${P99_GOAL}: ${verdict(p99 <= P99_GOAL)}), ` +
          `RSS ${s.rss.toFixed(0)} MB (target <= ${RSS_GOAL_MB}: ${verdict(s.rss <= RSS_GOAL_MB)}); ` +
          `baseline CPU/service CPU per request ${cpu.toFixed(3)}`
      )
      rows.push({ workload, ratio, p99Ratio: p99, cpuRatio: cpu, bestRatio: s.bestRps / b.bestRps })
      if (options.rounds > 1) {
        lines.push(`${INDENT}service/baseline, fastest round of each: throughput ${(s.bestRps / b.bestRps).toFixed(3)}`)
      }
    }
    if (workload === "ua-batch") lines.push(...perUserAgent(results))
    const e = byTarget.get("earlier")
    if (e !== undefined && s !== undefined && b !== undefined) {
      const [now, before] = [s.rps / b.rps, e.rps / b.rps]
      lines.push(
        `${INDENT}service against earlier (--compare): service/baseline throughput ${now.toFixed(3)} against ` +
          `${before.toFixed(3)} (${(((now - before) / before) * 100).toFixed(1)} %), CPU per request ` +
          `${s.cpuUs.toFixed(0)} against ${e.cpuUs.toFixed(0)} µs, peak RSS ${s.rss.toFixed(0)} against ${e.rss.toFixed(0)} MB`
      )
      rows.push({ workload, serviceOverEarlier: now / before })
      const paired = pairedRatios(results, workload)
      const interval = medianInterval(paired)
      if (interval !== undefined) {
        const [low, high] = interval
        const middle = median(paired)
        const verdict = low > 1 ? "the service faster" : high < 1 ? "the service slower" : "not told apart"
        rows.push({ workload, serviceOverEarlierByRound: { median: middle, low, high } })
        lines.push(
          `${INDENT}service/earlier throughput round by round: median x${middle.toFixed(3)} ` +
            `(95 % x${low.toFixed(3)}-x${high.toFixed(3)}: ${verdict})`
        )
      }
    }
  }
  return { lines, rows }
}
