/**
 * Where a server's peak RSS under load lies: `bun bench/peakRegions.ts [--workload ua-mix] [--only parses|generates]
 * [--rounds 3] [--seconds 8] [CHECKOUT ...]` (default: this tree). Each round starts each checkout's service from
 * source in turn (its request log to a file), loads it with wrk for 3 s, then for `--seconds` more while reading
 * /proc/PID/smaps every 100 ms. At the sample of largest RSS it splits the memory by mapping (bench/lib/regions.ts):
 * - anonymous read-write: the JavaScript heap, malloc's arenas, buffers;
 * - anonymous executable: the JIT's code;
 * - file-backed code and data: the runtime's binary and libraries.
 * A probe preloaded into the server (bench/lib/heapProbe.ts) gives the JavaScript heap's largest capacity and use,
 * which tell the heap from the rest of the anonymous memory. `--only` keeps the workload's parses or its generates.
 * The checkouts take turns to go first, round by round. Prints one line a run and the medians by checkout. See
 * bench/README.md, "Over sockets, by region".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { count, fail, main, parseFlags } from "./lib/args.ts"
import { peakRss } from "./lib/proc.ts"
import { type Regions, regionsOf, totalOf } from "./lib/regions.ts"
import { BENCH, LOAD_ENV, ROOT, startServer } from "./lib/server.ts"
import { median } from "./lib/stats.ts"
import { ensureWrk, runWrk } from "./lib/wrk.ts"
import { requestLines, type Workload, WORKLOADS } from "./workloads.ts"

const USAGE =
  "Usage: bun bench/peakRegions.ts [--workload ua-mix] [--only parses|generates] [--rounds 3] [--seconds 8] [CHECKOUT ...]\n"
const WARMUP_SECONDS = 3
const MB = 2 ** 20

const regions = (pid: number): Regions => regionsOf(readFileSync(`/proc/${pid}/smaps`, "utf8"))

interface Run {
  readonly peakRss: number
  readonly atPeak: Regions
  readonly heapCapacity: number
  readonly heapSize: number
}

const measure = async (checkout: string, file: string, seconds: number, folder: string, n: number): Promise<Run> => {
  const probe = join(folder, `heap-${n}.json`)
  const server = await startServer({
    name: checkout,
    command: [process.execPath, "--preload", join(BENCH, "lib/heapProbe.ts"), join(checkout, "src/main.ts")],
    env: { ...LOAD_ENV, HEAP_PROBE_FILE: probe },
    stdout: Bun.file(join(folder, `${n}.log`))
  })
  try {
    const wrk = ensureWrk()
    await runWrk(wrk, { port: server.port, file, seconds: WARMUP_SECONDS })
    let atPeak = regions(server.proc.pid)
    const sampler = setInterval(() => {
      const now = regions(server.proc.pid)
      if (totalOf(now) > totalOf(atPeak)) atPeak = now
    }, 100)
    await runWrk(wrk, { port: server.port, file, seconds })
    clearInterval(sampler)
    // the probe writes every half second
    await Bun.sleep(600)
    const heap = JSON.parse(readFileSync(probe, "utf8"))
    return { peakRss: peakRss(server.proc.pid), atPeak, heapCapacity: heap.heapCapacity, heapSize: heap.heapSize }
  } finally {
    await server.stop()
  }
}

const describe = (run: Run): string =>
  [
    `peak RSS ${(run.peakRss / MB).toFixed(0)} MB`,
    `anonymous read-write ${(run.atPeak.anonymous / MB).toFixed(1)}`,
    `JIT code ${(run.atPeak.jitCode / MB).toFixed(1)}`,
    `file-backed ${(run.atPeak.fileBacked / MB).toFixed(1)}`,
    `JS heap capacity ${(run.heapCapacity / MB).toFixed(1)}, in use ${(run.heapSize / MB).toFixed(1)}`
  ].join(", ")

await main(async () => {
  let workload: Workload = "ua-mix"
  let only: "parses" | "generates" | undefined
  let rounds = 3
  let seconds = 8
  const checkouts: Array<string> = []
  parseFlags(
    process.argv.slice(2),
    USAGE,
    {
      "--workload": (value) => {
        const name = value()
        workload = WORKLOADS.find((w) => w === name) ?? fail(`--workload: one of ${WORKLOADS.join(", ")}`)
      },
      "--only": (value) => {
        const kept = value()
        only = kept === "parses" || kept === "generates" ? kept : fail("--only: parses or generates")
      },
      "--rounds": (value, flag) => (rounds = count(flag, value())),
      "--seconds": (value, flag) => (seconds = count(flag, value()))
    },
    (checkout) => checkouts.push(resolve(checkout))
  )
  if (checkouts.length === 0) checkouts.push(ROOT)
  const folder = mkdtempSync(join(tmpdir(), "peak-regions-"))
  try {
    const isGenerate = (line: string) => line.includes('"operation":"generate"')
    const lines = requestLines(workload).filter((line) =>
      only === undefined ? true : only === "generates" ? isGenerate(line) : !isGenerate(line)
    )
    const file = join(folder, "requests.txt")
    writeFileSync(file, lines.join("\n") + "\n")
    const runs = new Map<string, Array<Run>>(checkouts.map((checkout) => [checkout, []]))
    let started = 0
    for (let round = 0; round < rounds; round++) {
      // each goes first in turn, so none always follows the same other
      for (const checkout of round % 2 === 0 ? checkouts : [...checkouts].reverse()) {
        started += 1
        const run = await measure(checkout, file, seconds, folder, started)
        runs.get(checkout)!.push(run)
        console.log(`${checkout} round ${round + 1}: ${describe(run)}`)
      }
    }
    for (const [checkout, each] of runs) {
      const medianOf = (pick: (run: Run) => number) => median(each.map(pick))
      const medianRun: Run = {
        peakRss: medianOf((run) => run.peakRss),
        atPeak: {
          anonymous: medianOf((run) => run.atPeak.anonymous),
          jitCode: medianOf((run) => run.atPeak.jitCode),
          fileBacked: medianOf((run) => run.atPeak.fileBacked)
        },
        heapCapacity: medianOf((run) => run.heapCapacity),
        heapSize: medianOf((run) => run.heapSize)
      }
      console.log(`median of ${each.length}, ${checkout}: ${describe(medianRun)}`)
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
})
