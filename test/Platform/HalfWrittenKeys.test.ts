/**
 * SIGHUP while API_KEYS_FILE is being written, in a real process: a writer puts a new key in two parts with a pause
 * between them and the signal comes in the pause. The prefix it wrote first is never a key; the previous keys serve
 * until the file is finished, then the finished key does.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { until, wageStatus as status } from "../support/Poll.ts"
import { start } from "../support/Process.ts"

setDefaultTimeout(30_000)

const OLD = "keyA_aaaaaaaaaaaaaaaaaaaaaaaa"
const NEW = "keyB_bbbbbbbbbbbbbbbbbbbbbbbb"
const PREFIX = NEW.slice(0, 7) // "keyB_bb"
const dir = mkdtempSync(join(tmpdir(), "tools-api-half-written-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("SIGHUP while the keys file is half-written", () => {
  for (const [name, first, rest] of [
    ["in the middle of a line", `# rotated\n${PREFIX}`, `${NEW.slice(PREFIX.length)}\n`],
    ["after a whole line, the next one begun", `${OLD}\n${PREFIX}`, `${NEW.slice(PREFIX.length)}\n`]
  ] as const) {
    test(`${name}: the prefix is never a key; the old keys serve until the file is finished`, async () => {
      const path = join(dir, `keys-${name.replace(/\W/g, "-")}.txt`)
      writeFileSync(path, `${OLD}\n`)
      const running = await start({ API_KEYS_FILE: path, AUTH_FAILURES_PER_MINUTE: "1000000" })
      try {
        expect(await status(running.base, OLD)).toBe(200)
        writeFileSync(path, first)
        running.proc.kill("SIGHUP")
        // the writer's pause (well inside the 2 s after which a file without a final newline counts as finished),
        // probed throughout
        const seen: Array<[number, number]> = []
        const pauseEnds = Date.now() + 700
        while (Date.now() < pauseEnds) {
          seen.push([await status(running.base, PREFIX), await status(running.base, OLD)])
          await Bun.sleep(50)
        }
        appendFileSync(path, rest)
        expect(seen.length).toBeGreaterThanOrEqual(3)
        expect(seen.filter(([prefix, old]) => prefix !== 401 || old !== 200)).toEqual([])
        await until(async () => (await status(running.base, NEW)) === 200)
        expect(await status(running.base, PREFIX)).toBe(401)
        expect(await status(running.base, OLD)).toBe(name.startsWith("after") ? 200 : 401)
        expect(running.stdout()).toContain('"message":"API keys reloaded"')
        expect(running.stdout()).not.toContain("not reloaded")
      } finally {
        expect(await running.stop()).toBe(0)
      }
    })
  }
})
