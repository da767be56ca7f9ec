/**
 * Every process the tests start goes through `spawn`: in a process group of its own (a supervisor with its workers,
 * a shell with its children), noted with its test file and whether a test (not a hook) started it. support/Cleanup.ts
 * kills, by group, what a test left running once it ends (passed, failed or timed out), what a file's hooks left once
 * another file runs, and everything at the end of the run or when `bun test` is told to stop.
 */
import type { SpawnOptions, Subprocess } from "bun"

/** Killed if still running after the test that started it, once another file runs, or at the end of the run. */
export type Until = "test" | "file" | "run"

interface Started {
  readonly proc: Subprocess
  readonly file: string
  readonly until: Until
}

const started = new Set<Started>()
// Tests of a describe.concurrent run at once: what they started is a leftover once none of them is running.
let testsRunning = 0

/** From the global beforeEach to afterEach: a process started meanwhile belongs to a test, not to a hook. */
export const testStarts = () => {
  testsRunning += 1
}
/** Whether no test is running any more, so what tests started and left can be killed. */
export const testEnds = () => {
  testsRunning -= 1
  return testsRunning === 0
}

/** Where a process started now belongs: to the test running, or to the hooks of the file. */
export const startedNow = (): Until => (testsRunning > 0 ? "test" : "file")

/**
 * `Bun.spawn`, with the child leading a process group of its own, which the cleanup kills whole; `until`: when it
 * is a leftover, if not where it starts (a redis-server restarted by a test for the file's later tests; the binary's
 * one build, for the whole run).
 */
export const spawn = <
  const In extends SpawnOptions.Writable = "ignore",
  const Out extends SpawnOptions.Readable = "pipe",
  const Err extends SpawnOptions.Readable = "inherit"
>(
  cmd: Array<string>,
  options: SpawnOptions.SpawnOptions<In, Out, Err> = {},
  until: Until = startedNow()
): Subprocess<In, Out, Err> => {
  const proc = Bun.spawn(cmd, { ...options, detached: true })
  const entry: Started = { proc, file: Bun.main, until }
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

/** Whether any process of `pid`'s group is left (a zombie, not yet reaped, counts). */
export const groupAlive = (pid: number) => signalGroup(pid, 0)

/**
 * Kills the groups `which` selects, and forgets them; forgets a group once nothing of it is left, so its number,
 * free again, is never signalled.
 */
const killStarted = (which: (entry: Started) => boolean) => {
  for (const entry of started) {
    if (which(entry)) signalGroup(entry.proc.pid, "SIGKILL")
    if (which(entry) || !groupAlive(entry.proc.pid)) started.delete(entry)
  }
}

/** What a test started; what the hooks of files that have ended started (files run one after another). */
export const killTestLeftovers = () =>
  killStarted((entry) => entry.until === "test" || (entry.until === "file" && entry.file !== Bun.main))
export const killAll = () => killStarted(() => true)
