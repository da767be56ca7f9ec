/**
 * The `startup` workload of `bun run bench`: the time from spawn to the first 200 on /health (as .ci/smoke waits for
 * it) of the compiled binary, the source and the baseline, with the CPU each had used by then.
 */
import { join } from "node:path"
import { cpuMillis } from "../lib/proc.ts"
import { BENCH, freePort, KEY, ROOT, spawnServer, stopProcess, waitForHealth } from "../lib/server.ts"
import { median } from "../lib/stats.ts"
import type { Options } from "./options.ts"
import { fixed } from "./report.ts"

export interface Startup {
  readonly target: string
  /** ms from spawn to the first 200 on /health */
  readonly runs: ReadonlyArray<number>
  /** ms of CPU the process had used by then, all threads (steadier than the wall time on a shared machine) */
  readonly cpu: ReadonlyArray<number>
}

export const measureStartup = async (options: Options): Promise<Array<Startup>> => {
  const binary = options.binary ?? join(ROOT, "dist/tools-api")
  const targets: Array<{ name: string; command: Array<string> }> = [
    { name: "service (bun src/main.ts)", command: [process.execPath, join(ROOT, "src/main.ts")] },
    { name: "baseline", command: [process.execPath, join(BENCH, "baseline.ts")] }
  ]
  if (await Bun.file(binary).exists())
    targets.unshift({ name: `binary (${binary.replace(`${ROOT}/`, "")})`, command: [binary] })
  else console.log(`startup: no ${binary}; run \`bun run build\` first to measure the binary`)
  const results = targets.map(({ name }) => ({ target: name, runs: [] as Array<number>, cpu: [] as Array<number> }))
  // interleaved, so a busy moment on the machine does not fall on one target's starts only
  for (let i = 0; i < options.startupRuns; i++) {
    for (const [index, { name, command }] of targets.entries()) {
      const port = freePort()
      const started = performance.now()
      const spec = { name, command, env: { API_KEYS: KEY }, stderr: "ignore" } as const
      const proc = spawnServer(spec, port)
      // polled often: the figure is in ms and a start takes a few hundred
      const up = await waitForHealth(proc, port, 10_000, 2)
      results[index]!.runs.push(up ? performance.now() - started : Number.NaN)
      results[index]!.cpu.push(up ? cpuMillis(proc.pid) : Number.NaN)
      await stopProcess(proc)
    }
  }
  return results
}

export const startupLine = ({ cpu, runs, target }: Startup): string =>
  `startup ${target}: first response after ${fixed(median(runs), 0)} ms median ` +
  `(${[...runs]
    .sort((a, b) => a - b)
    .map((r) => fixed(r, 0))
    .join(", ")} ms); ` +
  `CPU by then ${fixed(median(cpu), 0)} ms median`
