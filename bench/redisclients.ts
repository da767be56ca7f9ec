/**
 * `bun bench/redisclients.ts [seconds]`: Bun's built-in Redis client against ioredis, on a redis-server of its own,
 * configured as the rate limiter would use them (no offline queue, reconnect forever). For each client:
 *   load       N callers in a loop, each running the token-bucket script (EVALSHA) one after the other: ops/s and
 *              latency percentiles, with 20 and 200 callers, the clients interleaved round by round
 *   down       a command while redis-server is killed: how long until it fails
 *   reconnect  redis-server restarted after 3 s down: how long until a command succeeds again
 *   long       the same after 12 s down (Bun's client stops retrying after `maxRetries`)
 *   hung       a command while redis-server is stopped (SIGSTOP): does the client ever give up by itself?
 *   auth       a wrong password: the error the client gives
 */
import Redis from "ioredis"
import { RedisClient } from "bun"
import { freePort } from "./lib/server.ts"
import { median } from "./lib/stats.ts"

const SECONDS = Number(process.argv[2] ?? 3)
const SCRIPT = `local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], 60000) return {n, 1}`

const startRedis = async (port: number, extra: Array<string> = []) => {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extra]
  const proc = Bun.spawn(["redis-server", ...args], { stdout: "ignore", stderr: "ignore" })
  for (let i = 0; i < 250; i++) {
    const ok = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data: () => {} } }).then(
      (s) => (s.end(), true),
      () => false
    )
    if (ok) return proc
    await Bun.sleep(20)
  }
  throw new Error("redis-server did not start")
}

interface Client {
  readonly send: (command: string, args: Array<string>) => Promise<unknown>
  readonly close: () => void
  /** What the client last said about its connection (Bun: onclose and connect; ioredis: its error event). */
  readonly lastError: () => string | undefined
}
const clients: Record<string, (url: string) => Client> = {
  bun: (url) => {
    const client: RedisClient = new RedisClient(url, {
      enableOfflineQueue: false,
      connectionTimeout: 1_000,
      maxRetries: 4_294_967_295
    })
    let last: string | undefined
    client.onclose = (error) => void (last = error?.message)
    client.connect().catch((error: Error) => void (last = error.message))
    return { send: (c, a) => client.send(c, a), close: () => client.close(), lastError: () => last }
  },
  ioredis: (url) => {
    const client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      retryStrategy: (n) => Math.min(n * 100, 1_000)
    })
    let last: string | undefined
    client.on("error", (error: Error) => void (last = error.message))
    return { send: (c, a) => client.call(c, ...a), close: () => client.disconnect(), lastError: () => last }
  }
}

const until = async (f: () => Promise<unknown>, ms: number) => {
  const started = performance.now()
  while (performance.now() - started < ms) {
    if (
      await f().then(
        () => true,
        () => false
      )
    )
      return performance.now() - started
    await Bun.sleep(10)
  }
  return Infinity
}
const settleWithin = (p: Promise<unknown>, ms: number) =>
  Promise.race([
    p.then(
      () => "answered",
      (e: unknown) => `failed: ${e instanceof Error ? e.message : String(e)}`
    ),
    Bun.sleep(ms).then(() => `still pending after ${ms} ms`)
  ])
const pct = (xs: Array<number>, p: number) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] ?? NaN

const port = freePort()
let proc = await startRedis(port)
const url = `redis://127.0.0.1:${port}`
const made = Object.fromEntries(Object.entries(clients).map(([name, make]) => [name, make(url)]))
for (const c of Object.values(made)) await until(() => c.send("PING", []), 3_000)
const sha = String(await made.bun!.send("SCRIPT", ["LOAD", SCRIPT]))

const load: Record<string, Array<{ callers: number; ops: number; p50: number; p99: number }>> = {}
for (let round = 0; round < 3; round++) {
  for (const callers of [20, 200]) {
    for (const [name, client] of Object.entries(made)) {
      const latencies: Array<number> = []
      const stop = performance.now() + SECONDS * 1_000
      await Promise.all(
        Array.from({ length: callers }, async (_, i) => {
          while (performance.now() < stop) {
            const started = performance.now()
            await client.send("EVALSHA", [sha, "1", `bench:${i}`])
            latencies.push(performance.now() - started)
          }
        })
      )
      ;(load[name] ??= []).push({
        callers,
        ops: latencies.length / SECONDS,
        p50: pct(latencies, 0.5),
        p99: pct(latencies, 0.99)
      })
    }
  }
}
for (const [name, runs] of Object.entries(load)) {
  for (const callers of [20, 200]) {
    const mine = runs.filter((r) => r.callers === callers)
    const f = (k: "ops" | "p50" | "p99") => median(mine.map((r) => r[k])).toFixed(k === "ops" ? 0 : 2)
    console.log(`load ${name} callers=${callers}: ${f("ops")} ops/s, p50 ${f("p50")} ms, p99 ${f("p99")} ms`)
  }
}

for (const [down, label] of [
  [3_000, "reconnect"],
  [12_000, "long"]
] as const) {
  proc.kill("SIGKILL")
  await proc.exited
  await Bun.sleep(200)
  for (const [name, client] of Object.entries(made)) {
    const started = performance.now()
    const verdict = await settleWithin(client.send("PING", []), 2_000)
    if (label === "reconnect") console.log(`down ${name}: ${verdict} in ${(performance.now() - started).toFixed(1)} ms`)
  }
  await Bun.sleep(down)
  proc = await startRedis(port)
  const back = await Promise.all(Object.values(made).map((c) => until(() => c.send("PING", []), 15_000)))
  Object.keys(made).forEach((name, i) =>
    console.log(`${label} ${name}: answers ${back[i]!.toFixed(0)} ms after restart`)
  )
}

proc.kill("SIGSTOP")
const hung = await Promise.all(Object.values(made).map((c) => settleWithin(c.send("PING", []), 5_000)))
Object.keys(made).forEach((name, i) => console.log(`hung ${name}: ${hung[i]}`))
proc.kill("SIGCONT")
for (const c of Object.values(made)) c.close()
proc.kill("SIGKILL")
await proc.exited

const authPort = freePort()
const authProc = await startRedis(authPort, ["--requirepass", "right-password"])
for (const [name, make] of Object.entries(clients)) {
  const client = make(`redis://:wrong-password@127.0.0.1:${authPort}`)
  await Bun.sleep(300)
  const verdict = await settleWithin(client.send("PING", []), 2_000)
  console.log(`auth ${name}: ${verdict}; connection error: ${client.lastError() ?? "none"}`)
  client.close()
}
authProc.kill("SIGKILL")
process.exit(0)
