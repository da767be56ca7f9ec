/**
 * Preloaded (bunfig.toml): whatever a test starts is stopped even when it fails or times out. After each test (after
 * the last of tests running at once), the process groups it started and left running are killed (a test's own
 * `finally` and `afterEach` run first, and stop them gracefully when they can); groups a file's hooks started are
 * killed once a test of another file has run; everything at the end of the run, and when `bun test` is interrupted.
 */
import { afterAll, afterEach, beforeEach } from "bun:test"
import { killAll, killTestLeftovers, testEnds, testStarts } from "./Started.ts"

beforeEach(testStarts)
afterEach(() => {
  if (testEnds()) killTestLeftovers()
})
afterAll(killAll)

// `bun test` runs no exit handlers; a signal is the other way it ends early.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129]
] as const) {
  process.once(signal, () => {
    killAll()
    process.exit(code)
  })
}
