/**
 * `bun bench/deadline.ts [seconds]`: does the 50 ms Redis deadline trip on a busy but healthy Redis? Two instances
 * share one redis-server (RATE_LIMIT_PER_MINUTE=100, one key); wrk loads both at once with 20, 64 and 256 connections
 * in all, for `seconds` each, a fresh pair of instances and an empty Redis per run. A false trip shows as an outage
 * line ("Redis does not answer"), `rate_limit_store_fallbacks_total` above 0, and more admitted than one limit allows:
 * 100 + seconds / 0.6 (each instance would otherwise admit from its own bucket: the fault once admitted 2.5x).
 * With `other`, a checkout of another commit (with node_modules linked in), each run is repeated on it, interleaved:
 *   git worktree add /tmp/before main && ln -s "$PWD/node_modules" /tmp/before/ && bun bench/deadline.ts 10 /tmp/before
 */
import { RedisClient } from "bun"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { count, fail, main } from "./lib/args.ts"
import { freePort, KEY, type Server, startServer } from "./lib/server.ts"
import { ensureWrk, runWrk } from "./lib/wrk.ts"
import { requestLines } from "./workloads.ts"

await main(async () => {
  const seconds = process.argv[2] === undefined ? 10 : count("seconds", process.argv[2])
  const checkouts = {
    this: "src/main.ts",
    ...(process.argv[3] === undefined ? {} : { other: join(process.argv[3], "src/main.ts") })
  }
  const wrk = ensureWrk()
  if (Bun.which("redis-server") === null) fail("redis-server is not installed: apt-get install redis-server")
  const redisPort = freePort()
  const args = ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
  const redis = Bun.spawn(["redis-server", ...args], { stdout: "ignore" })
  const dir = mkdtempSync(join(tmpdir(), "deadline-"))
  try {
    await Bun.sleep(300)
    const url = `redis://127.0.0.1:${redisPort}`
    const admin = new RedisClient(url)
    const file = join(dir, "wage.txt")
    writeFileSync(file, requestLines("wage").join("\n") + "\n")
    const metric = async (server: Server, name: string) => {
      const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text()
      return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1])
    }
    const allowed = 100 + Math.ceil((seconds * 1000) / 600)
    for (const [connections, [checkout, main]] of [20, 64, 256].flatMap((c) =>
      Object.entries(checkouts).map((e) => [c, e] as const)
    )) {
      await admin.send("FLUSHALL", [])
      const logs = ["a", "b"].map((n) => join(dir, `${checkout}-${connections}-${n}.log`))
      const env = { API_KEYS: KEY, REDIS_URL: url, RATE_LIMIT_PER_MINUTE: "100" }
      const servers = await Promise.all(
        logs.map((log, i) =>
          startServer({
            name: `instance ${i}`,
            command: [process.execPath, main],
            env,
            stdout: Bun.file(log)
          })
        )
      )
      try {
        const loads = servers.map((s) => runWrk(wrk, { port: s.port, file, seconds, connections: connections / 2 }))
        const results = await Promise.all(loads)
        const requests = results.reduce((n, r) => n + r.requests, 0)
        const admitted = results.reduce((n, r) => n + r.requests - r.statusErrors, 0)
        const fallbacks = (await Promise.all(servers.map((s) => metric(s, "rate_limit_store_fallbacks_total")))).reduce(
          (a, b) => a + b,
          0
        )
        const outageLines = logs.flatMap((log) =>
          readFileSync(log, "utf8")
            .split("\n")
            .filter((line) => line.includes("Redis does not answer"))
        )
        const outages = outageLines.length
        for (const line of outageLines) console.log(`  ${line.slice(0, 200)}`)
        const p99 = Math.max(...results.map((r) => r.p99Us / 1000))
        console.log(
          `${checkout} ${connections} connections, ${seconds} s: ${requests} requests, admitted ${admitted} ` +
            `(one limit allows ${allowed}), outages logged ${outages}, fallbacks ${fallbacks}, p99 ${p99.toFixed(1)} ms`
        )
      } finally {
        await Promise.all(servers.map((s) => s.stop()))
      }
    }
    admin.close()
  } finally {
    redis.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})
