/**
 * What a test starts is stopped even when it fails or times out (support/Cleanup.ts, preloaded): a child `bun test`
 * runs support/LeavesProcesses.ts, whose hooks leave a redis-server and a server and whose failing test leaves a
 * WORKERS=2 supervisor serving; once it has ended, no process of any of their groups is left, and no port answers.
 */
import { expect, test } from "bun:test"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { until } from "./support/Poll.ts"
import { outputOf } from "./support/Process.ts"
import { groupAlive, killGroup, spawn } from "./support/Started.ts"

const ROOT = resolve(import.meta.dir, "..")

const answers = (port: number) =>
  Bun.connect({ hostname: "127.0.0.1", port, socket: { data: () => {} } }).then(
    (socket) => {
      socket.end()
      return true
    },
    () => false
  )
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test("a failed test's supervisor and workers, and what hooks started and left, are gone after the run", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-cleanup-"))
  const out = join(dir, "started.jsonl")
  let started: Array<{ group: number; port: number; pids: Array<number> }> = []
  try {
    const run = spawn([process.execPath, "test", "./test/support/LeavesProcesses.ts"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", STARTED_OUT: out },
      stdout: "pipe",
      stderr: "pipe"
    })
    const { code, stderr } = await outputOf(run)
    started = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(code).toBe(1)
    expect(stderr).toContain("(fail) fails with WORKERS=2 serving")
    expect(stderr).toContain(
      "(fail) a server started by a hook, for tests that fail before the last one stops it > fails"
    )
    expect(started).toHaveLength(3)
    expect(started[1]!.pids).toHaveLength(2)
    // SIGKILLed before the child ended; the kernel may take a moment to reap them
    await until(() => started.every(({ group }) => !groupAlive(group)))
    expect(started.flatMap(({ pids }) => pids).filter(alive)).toEqual([])
    expect(await Promise.all(started.map(({ port }) => answers(port)))).toEqual([false, false, false])
  } finally {
    for (const { group } of started) killGroup(group)
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)
