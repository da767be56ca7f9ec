/**
 * `parse --jobs`' worker threads (src/Cli/parse/Pool.ts): a block's agents are answered in their order whichever
 * worker parsed each, and a worker that stops or fails makes the run fail with a message, never wait forever.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit } from "effect"
import { makePool } from "../../src/Cli/parse/Pool.ts"

setDefaultTimeout(60_000)

const dir = mkdtempSync(join(tmpdir(), "tools-api-pool-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname

/** A worker module of the given text. */
const workerOf = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const parseWith = (entry: string, jobs: number, userAgents: ReadonlyArray<string>) =>
  Effect.runPromiseExit(Effect.scoped(Effect.flatMap(makePool(jobs, entry), (pool) => pool(userAgents))))

test("two workers answer a block's agents in their order, each the API's JSON of its agent", async () => {
  const agents = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "kube-probe/1.29"
  ]
  const exit = await parseWith(MAIN, 2, agents)
  if (!Exit.isSuccess(exit)) throw new Error(`the pool failed: ${exit.cause}`)
  const answers = exit.value.map((line) => JSON.parse(line))
  expect(answers.map((answer) => answer.userAgent)).toEqual(agents)
  expect(answers.map((answer) => answer.browser.name)).toEqual(["Chrome", "Googlebot", "kube-probe"])
})

test("a worker that stops before answering fails the run, naming it", async () => {
  const entry = workerOf("exits.ts", "process.exit(3)\n")
  const exit = await parseWith(entry, 1, ["any agent"])
  expect(Exit.isFailure(exit)).toBe(true)
  expect(String(exit)).toContain("worker 1 stopped (exit status 3) before its answers were in")
})

test("a worker that throws fails the run, naming it and what it threw", async () => {
  const entry = workerOf(
    "throws.ts",
    'require("node:worker_threads").parentPort.on("message", () => { throw new Error("boom") })\n'
  )
  const exit = await parseWith(entry, 2, ["one", "two"])
  expect(Exit.isFailure(exit)).toBe(true)
  expect(String(exit)).toMatch(/worker [12] failed \(boom\) before its answers were in/)
})
