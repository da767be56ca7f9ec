/**
 * Keys-file mistakes in a real process: a line whose key came out empty (a template's `$KEY`: its settings must never
 * become a key), and a key given in API_KEYS and in API_KEYS_FILE both (which limit it gets is ambiguous, and removing
 * it from the file would not revoke it). At start: exit 1 and a line naming the file's line, never its text; on
 * SIGHUP: the keys in use stay and the log says why. A SIGHUP that finds the file as it was last read (what a
 * single-file bind mount shows after a rename) says so.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { until, wageStatus as status } from "../support/Poll.ts"
import { command, outputOf, type Running, start } from "../support/Process.ts"
import { spawn } from "../support/Started.ts"
import { WAGE_PATH } from "../support/TestApp.ts"

// Real processes on a loaded machine: more than bun test's 5 s.
setDefaultTimeout(60_000)

const OLD = "old-key-in-the-file-0001"
const NEW = "new-key-in-the-file-0002"
const STAY = "key-in-api-keys-stays-03"
// What ` limit=500 name=acme` would have served as a key
const SETTINGS_AS_KEY = "limit=500"
const dir = mkdtempSync(join(tmpdir(), "tools-api-key-mistakes-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const count = (text: string, needle: string) => text.split(needle).length - 1

/** A start expected to fail: its exit status and output; one that serves instead is stopped after 20 s. */
const refusedStart = async (env: Record<string, string>) => {
  const proc = spawn(command(), {
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 20_000
  })
  try {
    return await outputOf(proc)
  } finally {
    proc.kill()
  }
}

describe("at start: exit 1, naming the file's line, never its text", () => {
  test("a line whose key came out empty (` limit=500 name=acme`)", async () => {
    const path = join(dir, "empty-key.txt")
    writeFileSync(path, `# customers\n limit=500 name=acme\n${OLD}\n`)
    const { code, stdout, stderr } = await refusedStart({ API_KEYS_FILE: path })
    expect(code).toBe(1)
    expect(stderr.trimEnd().split("\n").at(-1)).toContain(
      `API_KEYS_FILE ${path}: line 2 starts with a setting (limit= or name=) where its key should be`
    )
    for (const text of [stdout, stderr])
      for (const part of [SETTINGS_AS_KEY, "acme", OLD]) expect(text).not.toContain(part)
  })

  test("a key of API_KEYS on a line of the file", async () => {
    const path = join(dir, "both.txt")
    writeFileSync(path, `${OLD}\n\n${STAY} limit=3\n`)
    const { code, stdout, stderr } = await refusedStart({
      API_KEYS: `a-key-only-in-the-env-1,${STAY}`,
      API_KEYS_FILE: path
    })
    expect(code).toBe(1)
    expect(stderr.trimEnd().split("\n").at(-1)).toContain(
      `API_KEYS_FILE ${path}: line 3 is the key of API_KEYS key 2: a key is given in API_KEYS or in API_KEYS_FILE, ` +
        "not both"
    )
    for (const text of [stdout, stderr]) for (const key of [STAY, OLD]) expect(text).not.toContain(key)
  })
})

describe("on SIGHUP", () => {
  const path = join(dir, "keys.txt")
  let running: Running
  beforeAll(async () => {
    writeFileSync(path, `${OLD}\n`)
    running = await start({ API_KEYS: STAY, API_KEYS_FILE: path, AUTH_FAILURES_PER_MINUTE: "1000000" })
  })
  afterAll(async () => {
    if (running !== undefined) expect(await running.stop()).toBe(0)
  })

  /** Writes the file, signals, and returns the refusal it logs. */
  const refusalOf = async (text: string) => {
    writeFileSync(path, text)
    const before = count(running.stdout(), "API keys not reloaded")
    running.proc.kill("SIGHUP")
    await until(() => count(running.stdout(), "API keys not reloaded") > before, 15_000)
    return running
      .stdout()
      .split("\n")
      .filter((line) => line.includes("API keys not reloaded"))
      .at(-1)
  }

  test("a line whose key came out empty: refused, its settings are no key, the keys in use stay", async () => {
    const refusal = await refusalOf(`${NEW}\n limit=500 name=acme\n`)
    expect(refusal).toContain(`${path}: line 2 starts with a setting (limit= or name=) where its key should be`)
    expect(running.stdout()).not.toContain(SETTINGS_AS_KEY)
    expect(running.stdout()).not.toContain(NEW)
    const statuses = [OLD, NEW, SETTINGS_AS_KEY, STAY].map((key) => status(running.base, key))
    expect(await Promise.all(statuses)).toEqual([200, 401, 401, 200])
  })

  test("a file that gains a key of API_KEYS: refused, the keys in use stay, the key keeps the default limit", async () => {
    const refusal = await refusalOf(`${NEW}\n${STAY} limit=1\n`)
    expect(refusal).toContain(`${path}: line 2 is the key of API_KEYS key 1`)
    expect(running.stdout()).not.toContain(STAY)
    expect(await Promise.all([OLD, NEW].map((key) => status(running.base, key)))).toEqual([200, 401])
    const answer = await fetch(`${running.base}${WAGE_PATH}`, {
      method: "POST",
      headers: { authorization: `Bearer ${STAY}`, "content-type": "application/json" },
      body: '{"hourlyWage":20}'
    })
    expect([answer.status, answer.headers.get("x-ratelimit-limit")]).toEqual([200, "100"])
  })

  test("a file renamed over is read; signalled again with nothing changed, the log says the file is unchanged", async () => {
    writeFileSync(`${path}.new`, `${NEW}\n`)
    renameSync(`${path}.new`, path)
    running.proc.kill("SIGHUP")
    await until(async () => (await status(running.base, NEW)) === 200, 15_000)
    const unchanged = "the file is unchanged since the last read (same inode and modification time)"
    expect(running.stdout()).not.toContain(unchanged)
    running.proc.kill("SIGHUP")
    await until(() => running.stdout().includes(unchanged), 15_000)
    const line = running
      .stdout()
      .split("\n")
      .find((text) => text.includes(unchanged))
    expect(line).toContain(`"message":"API keys reloaded; ${unchanged}: if it is bind-mounted as a single file, mount`)
    expect(line).toContain('"added":0,"removed":0')
  })
})
