/**
 * A log reader that stops reading never stops the service: the real process, its standard output a pipe nobody
 * reads for 10 s. /health keeps answering quickly, the process does not spin, lines past the buffer are dropped and
 * counted, and once the pipe is read again the lines flow, with one warning saying how many were dropped.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { command } from "../support/Process.ts"
import { type RedisServer, startRedis } from "../support/Redis.ts"
import { spawn } from "../support/Started.ts"

const PAUSE_MS = 10_000
const CLK_TCK = 100 // Linux's USER_HZ

const freePort = () => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/** CPU seconds the process and its waited-for children have used (utime + stime + cutime + cstime). */
const cpuSeconds = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
}

/** The pids of `pid`'s children (a WORKERS primary's workers). */
const children = (pid: number): Array<number> => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** One GET with a deadline: its status and how long it took (Infinity when it did not answer in `ms`). */
const timed = async (url: string, ms = 2_000) => {
  const started = performance.now()
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(ms) })
    const body = await response.text()
    return { status: response.status, ms: performance.now() - started, body }
  } catch {
    return { status: 0, ms: Infinity, body: "" }
  }
}

let dir: string
let redis: RedisServer
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "slow-reader-"))
  redis = await startRedis()
})
afterAll(async () => {
  await redis?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const scenario = async (name: string, env: Record<string, string>) => {
  // A FIFO opened read-write here: the server's writes fill it (64 KiB) and then wait until a reader comes.
  const fifo = join(dir, name)
  Bun.spawnSync(["mkfifo", fifo])
  const held = openSync(fifo, "r+")
  const port = freePort()
  const base = `http://127.0.0.1:${port}`
  const server = spawn(command(), {
    env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", API_KEYS: "slow-reader-key", ...env },
    stdout: held,
    stderr: "pipe"
  })
  let reader: ReturnType<typeof Bun.spawn> | undefined
  try {
    const startedBy = Date.now() + 20_000
    while ((await timed(`${base}/health`, 500)).status !== 200) {
      if (Date.now() > startedBy || server.exitCode !== null) throw new Error(`${name}: server did not start`)
      await Bun.sleep(50)
    }
    const pausedAt = Date.now()

    // /health every 100 ms for the whole pause, each timed
    const healthTimes: Array<number> = []
    const pinging = (async () => {
      while (Date.now() - pausedAt < PAUSE_MS) {
        healthTimes.push((await timed(`${base}/health`)).ms)
        await Bun.sleep(100)
      }
    })()

    // requests, each a log line, until the buffer behind the full pipe overflows (or a few seconds pass)
    const path = `${base}/${"x".repeat(200)}`
    const droppedOnMetrics = async () => {
      const text = (await timed(`${base}/metrics`)).body
      return Number(/^log_lines_dropped_total(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0)
    }
    for (let sent = 8; Date.now() - pausedAt < 6_000; sent += 8) {
      await Promise.all(Array.from({ length: 8 }, () => timed(path, 2_000)))
      if (sent % 400 === 0 && (await droppedOnMetrics()) > 0) break
    }

    // the rest of the pause: only /health; a process spinning on the full pipe would use a whole core
    await Bun.sleep(500)
    const pids = [server.pid, ...children(server.pid)]
    const cpuBefore = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
    const idleFrom = performance.now()
    await pinging
    const idleSeconds = (performance.now() - idleFrom) / 1000
    const cpu = (pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore) / idleSeconds
    const dropped = await droppedOnMetrics()

    // read again: the waiting lines, then the warning, then new lines
    reader = spawn(["cat", fifo], { stdout: "pipe" })
    const out: Array<string> = []
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of reader.stdout as ReadableStream<Uint8Array>) out.push(decoder.decode(chunk))
    })()
    const after = `${base}/after-the-pause`
    const flowingBy = Date.now() + 10_000
    while (!out.join("").includes("/after-the-pause") && Date.now() < flowingBy) {
      await timed(after)
      await Bun.sleep(200)
    }
    const lines = out.join("").split("\n")
    const warning = lines.find((line) => line.includes("linesDropped"))

    // every one answered, and quickly: a blocked process answers none (Infinity). Most answers take a few ms; the
    // bound leaves room for a machine loaded by other work.
    expect(healthTimes.length).toBeGreaterThan(20)
    expect(healthTimes.filter((ms) => ms >= 1_000)).toEqual([])
    expect(cpu).toBeLessThan(0.1)
    expect(dropped).toBeGreaterThan(0)
    expect(warning).toBeDefined()
    expect(JSON.parse(warning!).annotations.linesDropped).toBeGreaterThan(0)
    expect(lines.some((line) => line.includes("/after-the-pause"))).toBe(true)
    expect(lines.filter((line) => line.includes("Worker stopped answering"))).toEqual([])
  } finally {
    server.kill("SIGKILL")
    await server.exited
    reader?.kill()
    closeSync(held)
  }
}

describe("a log reader that stops reading for 10 s", () => {
  test("one process: /health answers throughout (within 1 s; a few ms idle), CPU under 10 %, lines dropped and counted, flowing after", async () => {
    await scenario("single", {})
  }, 45_000)

  test("WORKERS=2: the workers keep serving and the primary keeps them (none killed), lines flowing after", async () => {
    await scenario("workers", { WORKERS: "2", REDIS_URL: redis.url })
  }, 60_000)
})
