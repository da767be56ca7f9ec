/**
 * WORKERS=2 as real processes with a real redis-server: a second deployment on the same port exits 1 (the workers'
 * SO_REUSEPORT would otherwise let it share the traffic), the primary alone logs the descriptor limit the workers
 * inherit, SIGHUP reaches every worker, and a worker that stops answering (SIGSTOP) is killed and replaced, the port
 * answering every new connection again within 5 s.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openFileLimits } from "../support/Limits.ts"
import { holds, until, wageStatus } from "../support/Poll.ts"
import { command, launch, listening, type Running, start } from "../support/Process.ts"
import { type RedisServer, startRedis } from "../support/Redis.ts"
import { spawn } from "../support/Started.ts"

/** Real processes on a shared 2-core machine: starts take seconds under load. */
const SLOW = 60_000
const OLD = "old-key-in-the-file-0001"
const NEW = "new-key-in-the-file-0002"

const dir = mkdtempSync(join(tmpdir(), "tools-api-workers-"))
const keysFile = join(dir, "keys.txt")
let redis: RedisServer
let primary: Running
/** Many requests, with one key and refused keys, from one address: limits they never reach (shared through Redis). */
const common = () => ({
  WORKERS: "2",
  RATE_LIMIT_PER_MINUTE: "1000000",
  AUTH_FAILURES_PER_MINUTE: "1000000",
  REDIS_URL: redis.url
})

beforeAll(async () => {
  redis = await startRedis()
  writeFileSync(keysFile, `${OLD}\n`)
  primary = await start({ ...common(), API_KEYS_FILE: keysFile }, undefined, 45_000)
}, SLOW)
afterAll(async () => {
  if (primary !== undefined) expect(await primary.stop()).toBe(0)
  await redis?.stop()
  rmSync(dir, { recursive: true, force: true })
}, SLOW)

const workerPids = () => [...primary.stdout().matchAll(/"Worker started".*?"pid":(\d+)/g)].map((m) => Number(m[1]))
const count = (text: string, needle: string) => text.split(needle).length - 1
/** `n` requests, each on a new connection, so the kernel spreads them over every worker. */
const statuses = (key: string, n = 20) => Promise.all(Array.from({ length: n }, () => wageStatus(primary.base, key)))

describe("WORKERS=2", () => {
  test(
    "a second deployment on the same port exits 1 naming PORT, and the first keeps every request",
    async () => {
      const second = spawn(command(), {
        env: {
          PATH: process.env.PATH ?? "",
          HOST: "127.0.0.1",
          PORT: String(primary.port),
          WORKERS: "2",
          REDIS_URL: redis.url,
          API_KEYS: "a-key-of-the-second-deployment"
        },
        stdout: "pipe",
        stderr: "pipe"
      })
      const timer = setTimeout(() => second.kill("SIGKILL"), 20_000)
      const code = await second.exited
      clearTimeout(timer)
      const stderr = await new Response(second.stderr).text()
      expect({ code, stderr }).toEqual({
        code: 1,
        stderr: `tools-api: invalid configuration: PORT ${primary.port} is already in use on 127.0.0.1\n`
      })
      expect(await statuses(OLD)).toEqual(Array(20).fill(200))
    },
    SLOW
  )

  test("the primary raises the descriptor limit and logs it once; its workers inherit it", () => {
    const primaryLimits = openFileLimits(primary.proc.pid)
    expect(workerPids().map((pid) => openFileLimits(pid))).toEqual([primaryLimits, primaryLimits])
    expect(primaryLimits[0]).toBe(primaryLimits[1]!)
    expect(count(primary.stdout(), '"message":"File descriptors: soft limit')).toBe(1)
  })

  test(
    "SIGHUP to the primary: every worker re-reads API_KEYS_FILE",
    async () => {
      writeFileSync(keysFile, `${NEW}\n`)
      primary.proc.kill("SIGHUP")
      await until(() => count(primary.stdout(), "API keys reloaded") === 2)
      expect(await statuses(NEW)).toEqual(Array(20).fill(200))
      expect(await statuses(OLD)).toEqual(Array(20).fill(401))
      expect(primary.proc.exitCode).toBeNull()
    },
    SLOW
  )

  test(
    "SIGHUP with API_KEYS_FILE turned into a FIFO: every worker refuses it at once and keeps its keys",
    async () => {
      try {
        const kills = count(primary.stdout(), "Worker stopped answering")
        rmSync(keysFile)
        Bun.spawnSync(["mkfifo", keysFile])
        primary.proc.kill("SIGHUP")
        await until(() => count(primary.stdout(), "it is a FIFO (named pipe), not a regular file") === 2)
        expect(await statuses(NEW)).toEqual(Array(20).fill(200))
        expect(count(primary.stdout(), "Worker stopped answering")).toBe(kills) // none hung on the FIFO
      } finally {
        // a regular file again, for the workers started by the next test
        rmSync(keysFile)
        writeFileSync(keysFile, `${NEW}\n`)
      }
    },
    SLOW
  )

  test(
    "a worker that stops answering (SIGSTOP) is killed and replaced; every new connection answered within 5 s",
    async () => {
      const [victim, sibling] = workerPids()
      const stopped = Date.now()
      process.kill(victim!, "SIGSTOP")
      try {
        // each round: 10 new connections, none allowed more than 1 s (a connection to the stopped worker hangs,
        // and is reset when the worker is killed)
        const round = () =>
          Promise.all(
            Array.from({ length: 10 }, () =>
              Promise.race([
                wageStatus(primary.base, NEW).catch((error: Error) => error.message),
                Bun.sleep(1_000).then(() => "hung")
              ])
            )
          )
        await until(async () => (await round()).every((status) => status === 200), 10_000)
        const answering = Date.now() - stopped
        await until(() => workerPids().length === 3, 10_000)
        const replaced = Date.now() - stopped
        expect(primary.stdout()).toContain('"message":"Worker stopped answering; killing it"')
        expect(answering).toBeLessThan(5_000)
        expect(replaced).toBeLessThan(5_000)
        expect(workerPids().slice(0, 2)).toEqual([victim!, sibling!])
        expect(await statuses(NEW)).toEqual(Array(20).fill(200))
      } finally {
        try {
          process.kill(victim!, "SIGKILL")
        } catch {}
      }
    },
    SLOW
  )
})

describe("WORKERS=2 with an API_KEYS_FILE that holds no key yet", () => {
  test(
    "one generated key, accepted by every worker, until SIGHUP brings the file's keys to all of them",
    async () => {
      const emptyFile = join(dir, "empty.txt")
      writeFileSync(emptyFile, "# no key yet\n")
      const env = { ...common(), API_KEYS_FILE: emptyFile }
      const running = await start(env, undefined, 45_000)
      try {
        await until(() => /generated for this run only: (\S+)/.test(running.stderr()))
        expect(running.stderr().match(/generated for this run only/g)).toHaveLength(1)
        const generated = /generated for this run only: (\S+)/.exec(running.stderr())![1]!
        const all = (key: string) => Promise.all(Array.from({ length: 20 }, () => wageStatus(running.base, key)))
        expect(await all(generated)).toEqual(Array(20).fill(200))

        writeFileSync(emptyFile, `${NEW}\n`)
        running.proc.kill("SIGHUP")
        await until(() => count(running.stdout(), "API keys reloaded") === 2)
        expect(await all(NEW)).toEqual(Array(20).fill(200))
        expect(await all(generated)).toEqual(Array(20).fill(401))
      } finally {
        expect(await running.stop()).toBe(0)
      }
    },
    SLOW
  )
})

describe("WORKERS=2 whose second worker is slow to start", () => {
  test(
    "the first worker, ready all along, is not taken for hung once the second serves",
    async () => {
      const launched = launch({ ...common(), API_KEYS: OLD })
      const secondPid = () => Number(/"Worker started".*?"worker":2,"pid":(\d+)/.exec(launched.stdout())?.[1])
      await until(() => Number.isSafeInteger(secondPid()), 45_000)
      // held longer than the heartbeat's 2.5 s of silence, as a loaded machine may hold a start
      process.kill(secondPid(), "SIGSTOP")
      await Bun.sleep(3_000)
      process.kill(secondPid(), "SIGCONT")
      const running = await listening(launched, 45_000)
      try {
        expect(await Promise.all(Array.from({ length: 20 }, () => wageStatus(running.base, OLD)))).toEqual(
          Array(20).fill(200)
        )
        // several heartbeats: none kills a worker
        await holds(() => !running.stdout().includes("Worker stopped answering"), 2_000)
        expect(count(running.stdout(), "Worker started")).toBe(2)
      } finally {
        expect(await running.stop()).toBe(0)
      }
    },
    SLOW
  )
})
