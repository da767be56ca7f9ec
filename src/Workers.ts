/**
 * WORKERS=N: a primary process starts N workers (this same program, from source or the compiled binary) that
 * share one port (SO_REUSEPORT: the kernel spreads connections), restarts one that dies (with backoff), and on
 * SIGTERM/SIGINT forwards SIGTERM to all, waits for them to drain, and exits 0. The primary serves nothing.
 */
import type { Subprocess } from "bun"
import { Clock, ConfigError, Data, Effect, Layer, Option } from "effect"
import { integer, optionalText } from "./Config.ts"
import { announcement, generateKey } from "./Services/ApiKeyStore.ts"

/** Set by the primary in each worker's environment (1..N); not a setting for people. */
export const WORKER_ENV = "TOOLS_API_WORKER"
export const workerIndex = optionalText(WORKER_ENV)

/** A worker that exited before it served: it has printed why; the primary exits with its code. */
export class WorkerStartFailed extends Data.TaggedError("WorkerStartFailed")<{ readonly code: number }> {}

/** In a worker, once it serves: tells the primary, and ends itself if the primary is gone. */
export const WorkerReadyLive = Layer.effectDiscard(
  Effect.sync(() => {
    process.send?.("ready")
    process.once("disconnect", () => process.kill(process.pid, "SIGTERM"))
  })
)

const STOP_DEADLINE_MS = 15_000 // above the drain deadline (10 s)
const QUICK_DEATH_MS = 10_000
const backoffMs = (quickDeaths: number) => Math.min(100 * 2 ** quickDeaths, 10_000)

/** The same program: the binary itself, or `bun src/main.ts`. */
const command = () => (Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, Bun.main])

const settings = Effect.gen(function* () {
  const workers = yield* integer("WORKERS", 1, 1, 256)
  if (workers > 1 && Option.isNone(yield* optionalText("REDIS_URL"))) {
    return yield* Effect.fail(
      ConfigError.InvalidData(["WORKERS"], "WORKERS above 1 requires REDIS_URL, so the processes share one rate limit")
    )
  }
  const port = yield* integer("PORT", 3000, 0, 65_535)
  const host = Option.getOrElse(yield* optionalText("HOST"), () => "0.0.0.0").trim()
  const noKeys = Option.isNone(yield* optionalText("API_KEYS")) && Option.isNone(yield* optionalText("API_KEYS_FILE"))
  return { workers, port, host, noKeys }
})

interface Worker {
  readonly proc: Subprocess
  /** true once it serves; false if it exited first. */
  readonly ready: Promise<boolean>
}

const supervise = (workers: number, port: number, host: string, noKeys: boolean) =>
  Effect.gen(function* () {
    if (port === 0) {
      const probe = Bun.listen({ hostname: host, port: 0, socket: { data: () => {} } })
      port = probe.port
      probe.stop(true)
    }
    // No key configured: one generated here, passed to every worker, printed once below.
    const key = noKeys ? generateKey() : undefined
    const env = { ...process.env, PORT: String(port), ...(key === undefined ? {} : { API_KEYS: key }) }
    const current = new Map<number, Worker>()
    let stopping = false

    const spawn = (index: number) =>
      Effect.sync(() => {
        let ready!: (ok: boolean) => void
        const proc = Bun.spawn(command(), {
          env: { ...env, [WORKER_ENV]: String(index) },
          stdio: ["ignore", "inherit", "inherit"],
          ipc: (message) => message === "ready" && ready(true)
        })
        const worker = { proc, ready: new Promise<boolean>((resolve) => (ready = resolve)) }
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
    return yield* Effect.never
  }).pipe(Effect.scoped)

/** Serves in this process, or with WORKERS above 1, supervises that many workers that do. */
export const launch = <E>(server: Layer.Layer<never, E>, logger: Layer.Layer<never, unknown>) =>
  Effect.gen(function* () {
    if (Option.isSome(yield* workerIndex)) return yield* Layer.launch(server)
    const { workers, port, host, noKeys } = yield* settings
    if (workers === 1) return yield* Layer.launch(server)
    return yield* supervise(workers, port, host, noKeys).pipe(Effect.provide(logger))
  })
