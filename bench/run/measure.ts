/** One measured run of `bun run bench`: a fresh server, wrk's warm-up, then the counted load and what it cost. */
import { cpuSeconds, peakRss } from "../lib/proc.ts"
import { runWrk, wrkErrors } from "../lib/wrk.ts"
import type { Workload } from "../workloads.ts"
import type { Options, Target } from "./options.ts"
import { startTarget } from "./targets.ts"

export interface Measured {
  readonly workload: Workload
  readonly target: Target
  readonly round: number
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly peakRssMb: number
  /** the server's CPU time per request: less sensitive than req/s to what else runs on a shared machine */
  readonly cpuUs: number
  readonly errors: number
}

export const measure = async (
  wrk: string,
  workload: Workload,
  file: string,
  target: Target,
  round: number,
  options: Options,
  logs: string
): Promise<Measured> => {
  const server = await startTarget(target, options, workload, logs)
  try {
    const load = (seconds: number) =>
      runWrk(wrk, {
        port: server.port,
        file,
        seconds,
        threads: options.threads,
        connections: options.connections,
        // well above any latency here: a slow answer is measured, not dropped as a time-out
        timeout: 10
      })
    if (options.warmup > 0) await load(options.warmup)
    const cpuBefore = cpuSeconds(server.proc.pid)
    const result = await load(options.duration)
    const cpu = cpuSeconds(server.proc.pid) - cpuBefore
    return {
      workload,
      target,
      round,
      rps: result.requests / (result.durationUs / 1e6),
      p50Ms: result.p50Us / 1000,
      p99Ms: result.p99Us / 1000,
      peakRssMb: peakRss(server.proc.pid) / 2 ** 20,
      cpuUs: (cpu * 1e6) / result.requests,
      errors: wrkErrors(result)
    }
  } finally {
    await server.stop()
  }
}
