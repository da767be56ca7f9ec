/** The primary of WORKERS=N: N workers (this same program) on one port, restarted when they die or hang. */
import type { Subprocess } from "bun"
import { Clock, Data, Effect, Result, Schedule } from "effect"
import { GENERATED_KEY_ENV, WORKER_ENV } from "../Config.ts"
import { announcement, generateKey } from "../Services/ApiKeyStore.ts"
import { claimPort, origin } from "./BunServer.ts"
import { selfCommand } from "./Self.ts"

/** A worker that exited before it served: it has printed why. */
export class WorkerStartFailed extends Data.TaggedError("WorkerStartFailed")<{ readonly code: number }> {}

const STOP_DEADLINE = "15 seconds" // above the workers' drain deadline
const QUICK_DEATH_MS = 10_000
const HEARTBEAT_MS = 500
const HUNG_MS = 2_500

interface Worker {
  readonly proc: Subprocess
  readonly ready: Promise<boolean> // true once it serves, false if it exited first
  answeredAt: number | undefined // undefined until it serves
  killed: boolean
}

type Pool = { readonly env: Record<string, string | undefined>; readonly workers: Map<number, Worker> }

const spawn = Effect.fnUntraced(function* (pool: Pool, index: number) {
  const ready = Promise.withResolvers<boolean>()
  const worker: Worker = {
    proc: Bun.spawn([...selfCommand()], {
      env: { ...pool.env, [WORKER_ENV]: String(index) },
      stdio: ["ignore", "inherit", "inherit"],
      ipc: (message) => {
        if (message === "ready") ready.resolve(true)
        if (message === "ready" || message === "pong") worker.answeredAt = Date.now()
      }
    }),
    ready: ready.promise,
    answeredAt: undefined,
    killed: false
  }
  void worker.proc.exited.then(() => ready.resolve(false))
  pool.workers.set(index, worker)
  yield* Effect.logInfo("Worker started").pipe(Effect.annotateLogs({ worker: index, pid: worker.proc.pid }))
  return worker
})

const serving = Effect.fnUntraced(function* (pool: Pool, index: number) {
  const worker = yield* spawn(pool, index)
  if (yield* Effect.promise(() => worker.ready)) return worker
  return yield* new WorkerStartFailed({ code: worker.proc.exitCode ?? 1 })
})

/** SIGTERM to all, so they drain; SIGKILL to any still running at the deadline. */
const stopAll = Effect.fnUntraced(function* (pool: Pool) {
  const all = [...pool.workers.values()].map((worker) => worker.proc)
  yield* Effect.logInfo("Shutting down: stopping workers").pipe(Effect.annotateLogs("workers", all.length))
  for (const proc of all) proc.kill("SIGTERM")
  const exited = Effect.promise(() => Promise.all(all.map((proc) => proc.exited)))
  const killAll = Effect.sync(() => all.forEach((proc) => proc.kill("SIGKILL")))
  yield* Effect.timeoutOrElse(exited, { duration: STOP_DEADLINE, orElse: () => Effect.andThen(killAll, exited) })
  yield* Effect.logInfo("All workers stopped")
})

/** Restarts the worker at `index` each time it exits, waiting longer the sooner it died. */
const restartOnExit = Effect.fnUntraced(function* (pool: Pool, index: number, first: Worker) {
  let worker = first
  let quickDeaths = 0
  while (true) {
    const since = yield* Clock.currentTimeMillis
    const code = yield* Effect.promise(() => worker.proc.exited)
    quickDeaths = (yield* Clock.currentTimeMillis) - since < QUICK_DEATH_MS ? quickDeaths + 1 : 0
    const delay = Math.min(100 * 2 ** quickDeaths, 10_000)
    yield* Effect.logWarning("Worker exited; restarting it").pipe(
      Effect.annotateLogs({ worker: index, code, restartInMs: delay })
    )
    yield* Effect.sleep(delay)
    worker = yield* spawn(pool, index)
  }
})

/** Pings every serving worker; kills one silent for HUNG_MS (stopped, or its loop blocked), so it is restarted. */
const heartbeat = Effect.fnUntraced(function* (pool: Pool) {
  let last = yield* Clock.currentTimeMillis
  // Silence counts from now: no one was pinged while the others started, however long a loaded machine took.
  for (const worker of pool.workers.values()) if (worker.answeredAt !== undefined) worker.answeredAt = last
  const beat = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    // The primary itself was held up: answers may be waiting unread, so judge no one this time.
    const late = now - last > 2 * HEARTBEAT_MS
    last = now
    for (const [index, worker] of pool.workers) {
      if (worker.answeredAt === undefined || worker.killed || worker.proc.exitCode !== null) continue
      if (late || now - worker.answeredAt < HUNG_MS) {
        Result.try(() => worker.proc.send("ping")) // a failure: its channel is closed, it is exiting and is restarted
        continue
      }
      worker.killed = true
      worker.proc.kill("SIGKILL")
      yield* Effect.logWarning("Worker stopped answering; killing it").pipe(
        Effect.annotateLogs({ worker: index, pid: worker.proc.pid, silentMs: now - worker.answeredAt })
      )
    }
  })
  return yield* Effect.repeat(beat, Schedule.spaced(HEARTBEAT_MS))
})

// The first worker starts alone, so a bad setting is reported once; restarts and heartbeat stop before `stopAll`.
export const supervise = Effect.fnUntraced(function* (count: number, port: number, host: string, noKeys: boolean) {
  const claimed = yield* claimPort(host, port)
  const key = noKeys ? generateKey() : undefined
  const pool: Pool = {
    env: { ...process.env, PORT: String(claimed), ...(key === undefined ? {} : { [GENERATED_KEY_ENV]: key }) },
    workers: new Map()
  }
  yield* Effect.addFinalizer(() => stopAll(pool))
  const first = yield* serving(pool, 1)
  const rest = yield* Effect.forEach(
    Array.from({ length: count - 1 }, (_, i) => i + 2),
    (index) => serving(pool, index),
    { concurrency: "unbounded" }
  )
  yield* Effect.logInfo(`Listening on ${origin(host, claimed)}`).pipe(Effect.annotateLogs("workers", count))
  if (key !== undefined) process.stderr.write(`${announcement(key)}\n`)
  yield* Effect.forEach([first, ...rest], (worker, i) => Effect.forkScoped(restartOnExit(pool, i + 1, worker)))
  yield* Effect.forkScoped(heartbeat(pool))
  const forwardHangup = () => pool.workers.forEach((worker) => worker.proc.kill("SIGHUP"))
  process.on("SIGHUP", forwardHangup)
  yield* Effect.addFinalizer(() => Effect.sync(() => process.off("SIGHUP", forwardHangup)))
  return yield* Effect.never
}, Effect.scoped)
