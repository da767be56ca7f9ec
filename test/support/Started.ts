/**
 * Every process the tests start goes through `spawn`: in a process group of its own (a supervisor with its workers,
 * a shell with its children), noted with the test file and whether a test (not a hook) started it. support/Cleanup.ts
 * kills, by group, what a test left running once it ends (passed, failed or timed out), what a file's hooks left once
 * another file runs, and everything at the end of the run or when `bun test` is told to stop.
 */
import type { SpawnOptions, Subprocess } from "bun"

interface Started {
  readonly proc: Subprocess
  readonly file: string
  readonly byTest: boolean
}

const started = new Set<Started>()
let testRunning = false

/** Between the global beforeEach and afterEach: a process started now belongs to the test, not to a hook. */
export const markTest = (running: boolean) => {
  testRunning = running
}

/** `Bun.spawn`, with the child leading a process group of its own, which the cleanup kills whole. */
export const spawn = <
  const In extends SpawnOptions.Writable = "ignore",
  const Out extends SpawnOptions.Readable = "pipe",
  const Err extends SpawnOptions.Readable = "inherit"
>(
  cmd: Array<string>,
  options: SpawnOptions.SpawnOptions<In, Out, Err> = {}
): Subprocess<In, Out, Err> => {
  const proc = Bun.spawn(cmd, { ...options, detached: true })
  const entry: Started = { proc, file: Bun.main, byTest: testRunning }
  started.add(entry)
  return proc
}

/** Sends `signal` to the group: the process and whatever it started (a supervisor's workers), even if it has exited. */
export const signalGroup = (pid: number, signal: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false // ESRCH: nothing of the group is left
  }
}

/** SIGKILL to `pid`'s group. */
export const killGroup = (pid: number) => void signalGroup(pid, "SIGKILL")

/** Whether any process of `proc`'s group is left (a zombie, not yet reaped, counts). */
export const groupAlive = (proc: Subprocess) => signalGroup(proc.pid, 0)

/**
 * Kills the groups `which` selects, and forgets them; forgets a group once nothing of it is left, so its number,
 * free again, is never signalled.
 */
const killStarted = (which: (entry: Started) => boolean) => {
  for (const entry of started) {
    if (which(entry)) signalGroup(entry.proc.pid, "SIGKILL")
    if (which(entry) || !groupAlive(entry.proc)) started.delete(entry)
  }
}

/** What a test started; what the hooks of files that have ended started (files run one after another). */
export const killTestLeftovers = () => killStarted((entry) => entry.byTest || entry.file !== Bun.main)
export const killAll = () => killStarted(() => true)
