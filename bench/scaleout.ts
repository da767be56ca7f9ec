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
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { requestLines } from "./workloads.ts"

const ROOT = resolve(import.meta.dir, "..")
const KEY = "bench-key-0123456789abcdef0123456789"
const rounds = Number(process.argv[2] ?? 3)
const seconds = Number(process.argv[3] ?? 10)
const WARMUP_S = 2

const freePort = () => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
const wrk =
  Bun.which("wrk") ??
  (() => {
    throw new Error("wrk is not installed: apt-get install wrk")
  })()
if (Bun.which("redis-server") === null) throw new Error("redis-server is not installed: apt-get install redis-server")

/** CPU seconds (user + system) of a process and its children, from /proc. */
const ticks = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim() || 100)
const cpuOf = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    const own = (Number(fields[11]) + Number(fields[12])) / ticks
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(" ").filter(Boolean).map(Number)
    )
    return own + children.reduce((sum, child) => sum + cpuOf(child), 0)
  } catch {
    return 0
  }
}

const redisPort = freePort()
const redis = Bun.spawn(
  ["redis-server", "--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
  { stdout: "ignore" }
)
await Bun.sleep(300)
const url = `redis://127.0.0.1:${redisPort}`
const configs = {
  memory: {},
  redis: { REDIS_URL: url },
  workers2: { REDIS_URL: url, WORKERS: "2" }
} satisfies Record<string, Record<string, string>>
type Config = keyof typeof configs

const dir = mkdtempSync(join(tmpdir(), "scaleout-"))
const requests = join(dir, "wage.txt")
writeFileSync(requests, requestLines("wage").join("\n") + "\n")

const load = (port: number, duration: number) => {
  const args = ["-t1", "-c32", `-d${duration}s`, "-s", join(import.meta.dir, "requests.lua")]
  const run = Bun.spawnSync([wrk, ...args, `http://127.0.0.1:${port}`, "--", requests, KEY])
  const line = run.stdout
    .toString()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"))
  if (line === undefined) throw new Error(`wrk failed: ${run.stdout} ${run.stderr}`)
  return JSON.parse(line) as { requests: number; statusErrors: number }
}

const measure = async (name: Config) => {
  const port = freePort()
  const env = { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", API_KEYS: KEY }
  const service = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: ROOT,
    env: { ...env, RATE_LIMIT_PER_MINUTE: "1000000000", ...configs[name] },
    stdout: "ignore",
    stderr: "ignore"
  })
  try {
    for (
      let i = 0;
      !(await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false
      ));
      i++
    ) {
      if (i > 1_000) throw new Error(`${name}: the service did not start`)
      await Bun.sleep(20)
    }
    load(port, WARMUP_S)
    const before = { service: cpuOf(service.pid), redis: cpuOf(redis.pid), at: performance.now() }
    const result = load(port, seconds)
    const elapsed = (performance.now() - before.at) / 1000
    const cpu = cpuOf(service.pid) - before.service + (cpuOf(redis.pid) - before.redis)
    return { rps: result.requests / elapsed, cpuMsPer1000: (cpu * 1e6) / result.requests, errors: result.statusErrors }
  } finally {
    service.kill("SIGTERM")
    await service.exited
  }
}

const results: Record<Config, Array<{ rps: number; cpuMsPer1000: number }>> = { memory: [], redis: [], workers2: [] }
try {
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
} finally {
  redis.kill()
  rmSync(dir, { recursive: true, force: true })
}

const median = (values: Array<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
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
