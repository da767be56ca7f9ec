/**
 * The primary of WORKERS=N: starts N workers (this same program, from source or the compiled binary) on one port,
 * restarts one that dies (after 100 ms, doubling for each death within 10 s of its start, at most 10 s), kills one
 * that stops answering its heartbeat so it is restarted, forwards SIGHUP to all (they re-read their keys), and when
 * interrupted (SIGTERM/SIGINT) sends SIGTERM to all, waits for them to drain (SIGKILL after 15 s) and returns.
 */
import type { Subprocess } from "bun"
import { Clock, Data, Effect, Schedule } from "effect"
import { GENERATED_KEY_ENV, WORKER_ENV } from "../Config.ts"
import { announcement, generateKey } from "../Services/ApiKeyStore.ts"
import { claimPort } from "./BunServer.ts"

/** A worker that exited before it served: it has printed why; the primary exits with its code. */
export class WorkerStartFailed extends Data.TaggedError("WorkerStartFailed")<{ readonly code: number }> {}

const STOP_DEADLINE_MS = 15_000 // above the drain deadline (10 s)
const QUICK_DEATH_MS = 10_000
const backoffMs = (quickDeaths: number) => Math.min(100 * 2 ** quickDeaths, 10_000)
/** A serving worker is pinged this often over IPC; one silent for HUNG_MS (SIGSTOP, a blocked loop) is killed. */
const HEARTBEAT_MS = 500
const HUNG_MS = 2_500

/** The same program: the binary itself, or `bun src/main.ts`. */
const command = () => (Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, Bun.main])

/** Asks a worker for a heartbeat; one whose channel is closed is exiting, and its watch restarts it. */
const ping = (proc: Subprocess) => {
  try {
    proc.send("ping")
  } catch {}
}

interface Worker {
  readonly proc: Subprocess
  /** true once it serves; false if it exited first. */
  readonly ready: Promise<boolean>
  /** When it last answered (or became ready); undefined until it serves. */
  answeredAt: number | undefined
  killed: boolean
}

export const supervise = (workers: number, port: number, host: string, noKeys: boolean) =>
  Effect.gen(function* () {
    port = yield* claimPort(host, port)
    // No key configured: one generated here, passed to every worker, printed once below.
    const key = noKeys ? generateKey() : undefined
    const env = { ...process.env, PORT: String(port), ...(key === undefined ? {} : { [GENERATED_KEY_ENV]: key }) }
    const current = new Map<number, Worker>()
    let stopping = false

    const spawn = (index: number) =>
      Effect.sync(() => {
        let ready!: (ok: boolean) => void
        const proc = Bun.spawn(command(), {
          env: { ...env, [WORKER_ENV]: String(index) },
          stdio: ["ignore", "inherit", "inherit"],
          ipc: (message) => {
            if (message === "ready") ready(true)
            if (message === "ready" || message === "pong") worker.answeredAt = Date.now()
          }
        })
        const worker: Worker = {
          proc,
          ready: new Promise<boolean>((resolve) => (ready = resolve)),
          answeredAt: undefined,
          killed: false
        }
        void proc.exited.then(() => ready(false))
        current.set(index, worker)
        return worker
      }).pipe(
        Effect.tap((worker) =>
          Effect.logInfo("Worker started").pipe(Effect.annotateLogs({ worker: index, pid: worker.proc.pid }))
        )
      )

    const started = (worker: Worker) =>
      Effect.flatMap(
        Effect.promise(() => worker.ready),
        (ok) => (ok ? Effect.void : Effect.fail(new WorkerStartFailed({ code: worker.proc.exitCode ?? 1 })))
      )

    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        stopping = true
        const all = [...current.values()].map((worker) => worker.proc)
        yield* Effect.logInfo("Shutting down: stopping workers").pipe(Effect.annotateLogs("workers", all.length))
        for (const proc of all) proc.kill("SIGTERM")
        const timer = setTimeout(() => all.forEach((proc) => proc.kill("SIGKILL")), STOP_DEADLINE_MS)
        yield* Effect.promise(() => Promise.all(all.map((proc) => proc.exited)))
        clearTimeout(timer)
        yield* Effect.logInfo("All workers stopped")
      })
    )

    // The first alone, so a bad setting is reported once, by one worker; then the rest.
    yield* Effect.flatMap(spawn(1), started)
    const rest = Array.from({ length: workers - 1 }, (_, i) => i + 2)
    yield* Effect.forEach(rest, (i) => Effect.flatMap(spawn(i), started), { concurrency: "unbounded" })
    yield* Effect.logInfo(`Listening on http://${host.includes(":") ? `[${host}]` : host}:${port}`).pipe(
      Effect.annotateLogs("workers", workers)
    )
    if (key !== undefined) process.stderr.write(`${announcement(key)}\n`)

    const watch = (index: number): Effect.Effect<never> =>
      Effect.gen(function* () {
        let quickDeaths = 0
        while (true) {
          const worker = current.get(index)!
          const since = yield* Clock.currentTimeMillis
          const code = yield* Effect.promise(() => worker.proc.exited)
          if (stopping) return yield* Effect.never
          quickDeaths = (yield* Clock.currentTimeMillis) - since < QUICK_DEATH_MS ? quickDeaths + 1 : 0
          const delay = backoffMs(quickDeaths)
          yield* Effect.logWarning("Worker exited; restarting it").pipe(
            Effect.annotateLogs({ worker: index, code, restartInMs: delay })
          )
          yield* Effect.sleep(delay)
          if (stopping) return yield* Effect.never
          yield* spawn(index)
        }
      })
    yield* Effect.forEach([...current.keys()], (index) => Effect.forkScoped(watch(index)))

    let lastBeat = yield* Clock.currentTimeMillis
    const heartbeat = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      // The primary itself was held up (a loaded machine): answers may be waiting unread, so judge no one this time.
      const late = now - lastBeat > 2 * HEARTBEAT_MS
      lastBeat = now
      if (stopping) return
      for (const [index, worker] of current) {
        if (worker.answeredAt === undefined || worker.killed || worker.proc.exitCode !== null) continue
        if (late || now - worker.answeredAt < HUNG_MS) {
          ping(worker.proc)
          continue
        }
        worker.killed = true
        worker.proc.kill("SIGKILL") // the watch above restarts it
        yield* Effect.logWarning("Worker stopped answering; killing it").pipe(
          Effect.annotateLogs({ worker: index, pid: worker.proc.pid, silentMs: now - worker.answeredAt })
        )
      }
    })
    yield* Effect.forkScoped(Effect.repeat(heartbeat, Schedule.spaced(HEARTBEAT_MS)))

    const forwardHangup = () => current.forEach((worker) => worker.proc.kill("SIGHUP"))
    process.on("SIGHUP", forwardHangup)
    yield* Effect.addFinalizer(() => Effect.sync(() => process.off("SIGHUP", forwardHangup)))
    return yield* Effect.never
  }).pipe(Effect.scoped)
