/**
 * SIGHUP with API_KEYS_FILE turned into something that is not a regular file of bounded size, in a real process: a
 * symlink to /dev/zero, a FIFO no one writes, a file over the bound. Each is refused at once and logged, the previous
 * keys stay, and /health answers throughout (reading /dev/zero grew the process by gigabytes; opening a FIFO hung it).
 * A symlink to a regular file is still followed.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MAX_KEYS_FILE_BYTES } from "../../src/Services/FinishedFile.ts"
import { until, wageStatus as status } from "../support/Poll.ts"
import { type Running, start } from "../support/Process.ts"

setDefaultTimeout(60_000)

const OLD = "old-key-in-the-file-0001"
const NEW = "new-key-in-the-file-0002"
const dir = mkdtempSync(join(tmpdir(), "tools-api-refused-keys-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const count = (text: string, needle: string) => text.split(needle).length - 1

/** /health's status, or "slow" when it takes more than 1 s. */
const health = (base: string) =>
  fetch(`${base}/health`, { signal: AbortSignal.timeout(1_000) }).then(
    (response) => response.status,
    () => "slow"
  )

/** SIGTERM; a process that does not exit in 5 s (one stuck in a read) is killed, so a failure frees its memory. */
const stop = async (running: Running) => {
  const timer = setTimeout(() => running.proc.kill("SIGKILL"), 5_000)
  const code = await running.stop()
  clearTimeout(timer)
  return code
}

const cases: ReadonlyArray<readonly [string, (path: string) => void, string]> = [
  ["a symlink to /dev/zero", (path) => symlinkSync("/dev/zero", path), "it is a device, not a regular file"],
  ["a FIFO with no writer", (path) => Bun.spawnSync(["mkfifo", path]), "it is a FIFO (named pipe), not a regular file"],
  [
    "a file over the bound (a good key, then comment lines)",
    (path) => writeFileSync(path, `${NEW}\n${`# ${"x".repeat(1022)}\n`.repeat(MAX_KEYS_FILE_BYTES / 1024)}`),
    "it is larger than 1 MiB"
  ]
]

describe("SIGHUP: API_KEYS_FILE that is not a regular file of bounded size", () => {
  const path = join(dir, "keys.txt")
  let running: Running
  beforeAll(async () => {
    writeFileSync(path, `${OLD}\n`)
    running = await start({ API_KEYS_FILE: path, AUTH_FAILURES_PER_MINUTE: "1000000" })
  })
  afterAll(async () => {
    if (running !== undefined) expect(await stop(running)).toBe(0)
  })

  for (const [name, make, why] of cases) {
    test(`${name}: refused without blocking and logged; the old keys stay; /health answers at once`, async () => {
      rmSync(path, { force: true })
      make(path)
      const before = count(running.stdout(), "API keys not reloaded")
      running.proc.kill("SIGHUP")
      const probes: Array<number | string> = []
      await until(async () => {
        probes.push(await health(running.base))
        return count(running.stdout(), "API keys not reloaded") > before || probes.length > 5
      }, 10_000)
      probes.push(await health(running.base))
      expect(probes.filter((probe) => probe !== 200)).toEqual([])
      const refusals = running
        .stdout()
        .split("\n")
        .filter((text) => text.includes("API keys not reloaded"))
      expect(refusals.at(-1)).toContain(`${path} could not be read: ${why}`)
      expect([await status(running.base, OLD), await status(running.base, NEW)]).toEqual([200, 401])
    })
  }

  test("a symlink to a regular file (as Kubernetes mounts a secret) is followed", async () => {
    rmSync(path, { force: true })
    writeFileSync(join(dir, "mounted.txt"), `${NEW}\n`)
    symlinkSync(join(dir, "mounted.txt"), path)
    running.proc.kill("SIGHUP")
    await until(async () => (await status(running.base, NEW)) === 200)
    expect(await status(running.base, OLD)).toBe(401)
  })
})
