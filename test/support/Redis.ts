/**
 * A real redis-server for tests, on a free loopback port, with no persistence; stopped by the test. Never skipped:
 * without redis-server installed the test fails saying how to install it (.ci/run does); under `bun test` that line
 * comes first, once (support/Preflight.ts), and test files stop what they started only if it started.
 */
import type { Subprocess } from "bun"
import Redis from "ioredis"
import { spawn, startedNow, type Until } from "./Started.ts"

export interface RedisServer {
  readonly port: number
  /** The redis-server's process id, which changes with `restart`. */
  readonly pid: () => number
  readonly url: string
  /** A plain client for assertions (keys, TTLs); closed by `stop`. */
  readonly client: Redis
  /** SIGSTOP: the process keeps its socket open and answers nothing. */
  readonly pause: () => void
  /** SIGCONT. */
  readonly resume: () => void
  /** SIGKILL: connections refused until `restart`. */
  readonly kill: () => Promise<void>
  /** A new, empty redis-server on the same port. */
  readonly restart: () => Promise<void>
  readonly stop: () => Promise<void>
}

const freePort = () => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

export const MISSING_REDIS = "redis-server is not installed: apt-get install -y redis-server (.ci/run installs it)"
export const redisServerMissing = () => Bun.which("redis-server") === null

const launch = async (port: number, until: Until, password?: string): Promise<Subprocess> => {
  if (redisServerMissing()) {
    // under `bun test`, the preload (support/Preflight.ts) has said how to install it, first
    const said = (globalThis as { redisServerMissingSaid?: boolean }).redisServerMissingSaid === true
    throw new Error(said ? "redis-server is not installed (see the first line of this run)" : MISSING_REDIS)
  }
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
  if (password !== undefined) args.push("--requirepass", password)
  const proc = spawn(["redis-server", ...args], { stdout: "ignore", stderr: "ignore" }, until)
  const deadline = Date.now() + 5_000
  while (Date.now() < deadline) {
    const ok = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data: () => {} } }).then(
      (socket) => (socket.end(), true),
      () => false
    )
    if (ok) return proc
    if (proc.exitCode !== null) break
    await Bun.sleep(20)
  }
  proc.kill("SIGKILL")
  throw new Error(`redis-server did not start on port ${port}`)
}

/** With `password`, redis-server requires it (--requirepass) and `client` sends it. */
export const startRedis = async (password?: string): Promise<RedisServer> => {
  const port = freePort()
  // a restart, even by a test, serves whoever started it: the file's later tests, or only this test
  const until = startedNow()
  let proc = await launch(port, until, password)
  const client = new Redis(port, "127.0.0.1", {
    lazyConnect: false,
    retryStrategy: () => 50,
    ...(password && { password })
  })
  client.on("error", () => {})
  return {
    port,
    pid: () => proc.pid,
    url: `redis://127.0.0.1:${port}`,
    client,
    pause: () => proc.kill("SIGSTOP"),
    resume: () => proc.kill("SIGCONT"),
    kill: async () => {
      proc.kill("SIGKILL")
      await proc.exited
    },
    restart: async () => {
      proc = await launch(port, until, password)
    },
    stop: async () => {
      client.disconnect()
      proc.kill("SIGCONT")
      proc.kill("SIGKILL")
      await proc.exited
    }
  }
}
