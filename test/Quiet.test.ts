/**
 * `bun test` prints the tests and their verdicts, nothing else: no figures printed on the way, no log lines of the
 * services under test (a failure shows its values through `expect`). A stray line buries the ones that matter.
 */
import { expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "..")

/** What bun test itself writes: its banner, file names, verdicts, and the summary. */
const OWN = /^(bun test v|test\/\S+:$|\((pass|fail)\) |\s*\d+ (pass|fail)$|\s*\d+ expect\(\) calls$|Ran \d+ tests? |$)/

test("test files print nothing of their own: no console output in the tests themselves", () => {
  const printing: Array<string> = []
  for (const file of new Bun.Glob("test/**/*.test.ts").scanSync(ROOT)) {
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .forEach((line, index) => {
        // a statement; a script handed to a child process (inside a string) may print, as it reports to its parent
        if (/^\s*(console\.(log|info|warn|error)|process\.(stdout|stderr)\.write)\(/.test(line)) {
          printing.push(`${file}:${index + 1}`)
        }
      })
  }
  expect(printing).toEqual([])
})

test("the services under test log nothing to the terminal: a run of the files that build them prints only verdicts", () => {
  const files = [
    "test/Services/ApiKeyStore.test.ts",
    "test/Http/RequestLog.test.ts",
    "test/Observability/Logger.test.ts"
  ]
  const run = Bun.spawnSync([process.execPath, "test", ...files], { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } })
  const output = `${run.stdout.toString()}${run.stderr.toString()}`
  expect(run.exitCode).toBe(0)
  expect(output.split("\n").filter((line) => !OWN.test(line))).toEqual([])
}, 60_000)
