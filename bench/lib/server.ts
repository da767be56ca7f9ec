/**
 * Servers under test: a free loopback port, the spawn with the environment every target reads (PORT, HOST), the wait
 * for a 200 on /health, and a stop that cannot hang.
 */
import type { BunFile, Subprocess } from "bun"
import { resolve } from "node:path"
import { fail } from "./args.ts"

/** The bench/ folder and the repository root: servers run from the root, as `bun run start` does. */
export const BENCH = resolve(import.meta.dir, "..")
export const ROOT = resolve(BENCH, "..")

/** The API key the load is sent with. */
export const KEY = "bench-key-0123456789abcdef0123456789"

/** The environment of a server under load: the bench key, and a rate limit high enough never to bite. */
export const LOAD_ENV: Readonly<Record<string, string>> = {
  API_KEYS: KEY,
  RATE_LIMIT_PER_MINUTE: "1000000000"
}

/** A port nothing listens on now: the kernel's pick for a listener that is closed again at once. */
export const freePort = (): number => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

export interface ServerSpec {
  /** for messages: "service", "baseline", … */
  readonly name: string
  readonly command: ReadonlyArray<string>
  /** on top of PATH, PORT and HOST=127.0.0.1 (and able to override them) */
  readonly env?: Readonly<Record<string, string>>
  readonly stdout?: "ignore" | "inherit" | BunFile
  /** "pipe" keeps it to show when the server does not start */
  readonly stderr?: "ignore" | "inherit" | "pipe"
}

/** Spawns the server on `port` without waiting for it: start-up timing starts the clock just before. */
export const spawnServer = (spec: ServerSpec, port: number) =>
  Bun.spawn([...spec.command], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", ...spec.env },
    stdin: "ignore",
    stdout: spec.stdout ?? "ignore",
    stderr: spec.stderr ?? "pipe"
  })

export const health = async (port: number): Promise<boolean> => {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`)
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

/** Polls /health every `everyMs` until a 200 (true), or until the process exits or `timeoutMs` pass (false). */
export const waitForHealth = async (proc: Subprocess, port: number, timeoutMs: number, everyMs: number) => {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    if (await health(port)) return true
    if (proc.exitCode !== null || performance.now() > deadline) return false
    await Bun.sleep(everyMs)
  }
}

/** SIGTERM, then SIGKILL if the process has not exited 15 s later, so that a stuck server cannot hang the run. */
export const stopProcess = async (proc: Subprocess): Promise<void> => {
  proc.kill("SIGTERM")
  const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000)
  await proc.exited
  clearTimeout(killer)
}

export interface Server {
  readonly proc: Subprocess
  readonly port: number
  readonly stop: () => Promise<void>
}

/** Starts the server on a free port and resolves once it answers /health; fails with its stderr after 30 s. */
export const startServer = async (spec: ServerSpec): Promise<Server> => {
  const port = freePort()
  const proc = spawnServer(spec, port)
  const stderr: Array<string> = []
  const stream = proc.stderr
  const reading =
    stream instanceof ReadableStream
      ? (async () => {
          const decoder = new TextDecoder()
          for await (const chunk of stream) stderr.push(decoder.decode(chunk, { stream: true }))
        })()
      : Promise.resolve()
  if (!(await waitForHealth(proc, port, 30_000, 20))) {
    proc.kill("SIGKILL")
    // a moment for what it wrote before exiting; not to the end, which a worker it left behind may hold open
    await Promise.race([reading, Bun.sleep(1_000)])
    fail(`the ${spec.name} did not start (exit ${proc.exitCode}):\n${stderr.join("")}`)
  }
  return { proc, port, stop: () => stopProcess(proc) }
}
