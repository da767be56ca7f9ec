/**
 * `bun bench/scaleout.ts [rounds] [seconds]`: what scaling out costs and gives, as ratios measured in one run, the
 * configurations interleaved round by round so that drift in the machine's load hits them alike:
 *   memory   the service alone (no REDIS_URL)
 *   redis    REDIS_URL: every request runs the Lua bucket in Redis
 *   workers2 REDIS_URL and WORKERS=2
 * Load: wrk on loopback (1 thread, 32 connections) with the `wage` requests of bench/workloads.ts and
 * bench/requests.lua, as `bun run bench` sends them. For each run: requests/s, and the CPU time the service (primary
 * and workers) and redis-server spent per 1,000 requests, read from /proc -- a cost figure that a busy machine
 * disturbs far less than requests/s. Starts its own redis-server (no persistence) on a free port, and stops it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { count, fail, main, parseFlags } from "./lib/args.ts"
import { cpuSeconds, cpuSecondsWithChildren } from "./lib/proc.ts"
import { freePort, LOAD_ENV, startServer } from "./lib/server.ts"
import { median } from "./lib/stats.ts"
import { ensureWrk, runWrk } from "./lib/wrk.ts"
import { requestLines } from "./workloads.ts"

const USAGE = `Usage: bun bench/scaleout.ts [rounds] [seconds]

  rounds    rounds of the three configurations, interleaved (default 3)
  seconds   seconds measured per run, after 2 s of warm-up (default 10)

Needs redis-server and wrk; starts its own Redis on a free loopback port.
`
const WARMUP_S = 2

type Config = "memory" | "redis" | "workers2"
interface Result {
  readonly rps: number
  readonly cpuMsPer1000: number
  readonly errors: number
}

await main(async () => {
  const positionals: Array<string> = []
  parseFlags(process.argv.slice(2), USAGE, {}, (argument) => positionals.push(argument))
  if (positionals.length > 2) fail(`at most two arguments, rounds and seconds\n${USAGE}`)
  const rounds = positionals[0] === undefined ? 3 : count("rounds", positionals[0])
  const seconds = positionals[1] === undefined ? 10 : count("seconds", positionals[1])

  const wrk = ensureWrk()
  if (Bun.which("redis-server") === null) fail("redis-server is not installed: apt-get install redis-server")
  const redisPort = freePort()
  const redis = Bun.spawn(
    ["redis-server", "--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdout: "ignore" }
  )
  const dir = mkdtempSync(join(tmpdir(), "scaleout-"))
  try {
    // time for redis-server to listen before the first service connects to it
    await Bun.sleep(300)
    const url = `redis://127.0.0.1:${redisPort}`
    const configs: Record<Config, Record<string, string>> = {
      memory: {},
      redis: { REDIS_URL: url },
      workers2: { REDIS_URL: url, WORKERS: "2" }
    }
    const file = join(dir, "wage.txt")
    writeFileSync(file, requestLines("wage").join("\n") + "\n")

    const measure = async (name: Config): Promise<Result> => {
      const service = await startServer({
        name: `service (${name})`,
        command: [process.execPath, "src/main.ts"],
        env: { ...LOAD_ENV, ...configs[name] }
      })
      try {
        await runWrk(wrk, { port: service.port, file, seconds: WARMUP_S })
        // the service with its workers, which are its children
        const cpu = () => cpuSecondsWithChildren(service.proc.pid) + cpuSeconds(redis.pid)
        const before = { cpu: cpu(), at: performance.now() }
        const result = await runWrk(wrk, { port: service.port, file, seconds })
        const elapsed = (performance.now() - before.at) / 1000
        const used = cpu() - before.cpu
        return {
          rps: result.requests / elapsed,
          cpuMsPer1000: (used * 1e6) / result.requests,
          errors: result.statusErrors
        }
      } finally {
        await service.stop()
      }
    }

    const results: Record<Config, Array<Result>> = { memory: [], redis: [], workers2: [] }
    for (let round = 1; round <= rounds; round++) {
      for (const name of Object.keys(configs) as Array<Config>) {
        const r = await measure(name)
        results[name].push(r)
        console.log(
          `round ${round} ${name}: ${Math.round(r.rps)} req/s, ${r.cpuMsPer1000.toFixed(0)} ms CPU per 1000 requests` +
            (r.errors > 0 ? `, ${r.errors} non-2xx` : "")
        )
      }
    }

    const rps = (name: Config) => median(results[name].map((r) => r.rps))
    const cpu = (name: Config) => median(results[name].map((r) => r.cpuMsPer1000))
    console.log(
      `\nmedians: memory ${Math.round(rps("memory"))} req/s ${cpu("memory").toFixed(0)} ms/1000; ` +
        `redis ${Math.round(rps("redis"))} req/s ${cpu("redis").toFixed(0)} ms/1000; ` +
        `workers2 ${Math.round(rps("workers2"))} req/s ${cpu("workers2").toFixed(0)} ms/1000`
    )
    console.log(`requests/s  Redis / in memory: ${(rps("redis") / rps("memory")).toFixed(2)}`)
    console.log(`requests/s  WORKERS=2 / WORKERS=1 (both Redis): ${(rps("workers2") / rps("redis")).toFixed(2)}`)
    console.log(`CPU/request Redis / in memory (service + redis-server): ${(cpu("redis") / cpu("memory")).toFixed(2)}`)
  } finally {
    redis.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})
