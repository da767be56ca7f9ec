/** Starts the service as a real process (from source, or the compiled binary) on a free port, for tests. */
import type { Subprocess } from "bun"
import { killGroup, spawn } from "./Started.ts"

export interface Running {
  readonly proc: Subprocess<"ignore", "pipe", "pipe">
  readonly base: string
  readonly port: number
  readonly stdout: () => string
  readonly stderr: () => string
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number>
}

const collect = (stream: ReadableStream<Uint8Array>, into: Array<string>) => {
  void (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) into.push(decoder.decode(chunk, { stream: true }))
  })()
}

export const command = (binary?: string): Array<string> =>
  binary === undefined ? [process.execPath, "src/main.ts"] : [binary]

/** A piped process's exit status and whole output, once it has ended. */
export const outputOf = async (proc: Bun.Subprocess<Bun.SpawnOptions.Writable, "pipe", "pipe">) => {
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited
  ])
  return { code, stdout, stderr }
}

/** Runs to completion (for --help, bad configuration, ...). */
export const runOnce = async (
  env: Record<string, string>,
  args: ReadonlyArray<string> = [],
  binary?: string,
  stdin?: string
) => {
  const proc = spawn([...command(binary), ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe"
  })
  return outputOf(proc)
}

/** Starts it (serving, with no `args`) without waiting: for a test that acts while it starts; `listening` waits. */
export const launch = (env: Record<string, string>, binary?: string, args: ReadonlyArray<string> = []) => {
  const proc = spawn([...command(binary), ...args], {
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
    stdout: "pipe",
    stderr: "pipe"
  })
  const out: Array<string> = []
  const err: Array<string> = []
  collect(proc.stdout, out)
  collect(proc.stderr, err)
  return { proc, stdout: () => out.join(""), stderr: () => err.join("") }
}

/**
 * Waits until it prints its address; `startMs`: how long that may take (more for WORKERS, whose workers start one
 * after another). If it does not, its whole process group (workers included) is killed.
 */
export const listening = async (launched: ReturnType<typeof launch>, startMs = 15_000): Promise<Running> => {
  const { proc, stdout, stderr } = launched
  const deadline = Date.now() + startMs
  let port = 0
  while (port === 0) {
    const match = /Listening on http:\/\/[^:]+:(\d+)/.exec(stdout())
    if (match !== null) port = Number(match[1])
    else if (proc.exitCode !== null || Date.now() > deadline) {
      killGroup(proc.pid)
      const why = proc.exitCode === null ? `did not start within ${startMs} ms` : `exited ${proc.exitCode}`
      throw new Error(`server ${why}: ${stdout()} ${stderr()}`)
    } else await Bun.sleep(20)
  }
  return {
    proc,
    port,
    base: `http://127.0.0.1:${port}`,
    stdout,
    stderr,
    stop: async () => {
      proc.kill("SIGTERM")
      return proc.exited
    }
  }
}

/**
 * Starts it and waits until it serves. `startMs`: how long it may take to print its address (more for WORKERS);
 * `args`: the command line (none: serve).
 */
export const start = (
  env: Record<string, string>,
  binary?: string,
  startMs = 15_000,
  args: ReadonlyArray<string> = []
): Promise<Running> => listening(launch(env, binary, args), startMs)
