/**
 * SIGHUP in a real process: API_KEYS_FILE is read again (added keys work, removed ones get 401), a request in flight
 * and a steady stream of requests are all answered, a bad file keeps the keys in use, and without a keys file the
 * signal is logged and ignored. The process never stops on SIGHUP (its default action would end it at once). From
 * source and as the compiled binary.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { binary } from "../support/Binary.ts"
import { until, wageStatus as status } from "../support/Poll.ts"
import { start } from "../support/Process.ts"
import { httpRequest, open } from "../support/Socket.ts"
import { WAGE_PATH } from "../support/TestApp.ts"

// Real processes on a loaded machine: more than bun test's 5 s.
setDefaultTimeout(30_000)

const OLD = "old-key-in-the-file-0001"
const NEW = "new-key-in-the-file-0002"
const STAY = "key-in-api-keys-stays-03"
const dir = mkdtempSync(join(tmpdir(), "tools-api-hangup-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const count = (text: string, needle: string) => text.split(needle).length - 1

const targets: ReadonlyArray<readonly [string, () => Promise<string | undefined>]> = [
  ["from source", async () => undefined],
  ["the compiled binary", binary]
]

for (const [name, which] of targets)
  describe(`SIGHUP, one process, ${name}`, () => {
    test("re-reads API_KEYS_FILE: added keys work, removed get 401; nothing in flight or arriving is dropped", async () => {
      const path = join(dir, `keys-${name.replace(/\W/g, "-")}.txt`)
      writeFileSync(path, `${OLD}\n`)
      // the stream below sends as many requests as it can: a limit it never reaches
      const limits = { RATE_LIMIT_PER_MINUTE: "1000000", AUTH_FAILURES_PER_MINUTE: "1000000" }
      const running = await start({ API_KEYS: STAY, API_KEYS_FILE: path, ...limits }, await which())
      try {
        expect([await status(running.base, OLD), await status(running.base, NEW)]).toEqual([200, 401])

        // a request whose body is still arriving when the signal comes
        const body = '{"hourlyWage": 25}'
        const slow = open(running.port, 15_000)
        const head = { authorization: `Bearer ${STAY}`, "content-type": "application/json" }
        await slow.write(httpRequest("POST", WAGE_PATH, { ...head, "content-length": String(body.length) }))
        await slow.write(body.slice(0, 5))
        // and a steady stream of requests with the key that stays, across the signals
        let streaming = true
        const stream = (async () => {
          const answers: Array<number | string> = []
          while (streaming) answers.push(await status(running.base, STAY).catch((error) => String(error)))
          return answers
        })()

        writeFileSync(path, `# rotated\n${NEW}\n`)
        running.proc.kill("SIGHUP")
        await until(async () => (await status(running.base, NEW)) === 200)
        expect(await status(running.base, OLD)).toBe(401)
        // the line may still be on its way behind the stream's request lines (CI once read stdout before it came)
        await until(() => running.stdout().includes('"message":"API keys reloaded"'))
        expect(running.stdout()).toContain('"added":1,"removed":1')

        writeFileSync(path, `${OLD} # a note makes the line no key\n`)
        running.proc.kill("SIGHUP")
        await until(() => running.stdout().includes("API keys not reloaded"))
        expect(running.stdout()).toContain(`${path}: line 1 holds a space`)
        expect(running.stdout()).not.toContain(OLD)
        expect([await status(running.base, NEW), await status(running.base, OLD)]).toEqual([200, 401])

        streaming = false
        const answers = await stream
        expect(answers.length).toBeGreaterThan(0)
        expect(answers.filter((answer) => answer !== 200)).toEqual([])
        await slow.write(body.slice(5))
        expect((await slow.answer).status).toBe(200)
        expect(running.proc.exitCode).toBeNull()
      } finally {
        expect(await running.stop()).toBe(0)
      }
    })

    test("without a keys file: logged and ignored, the service goes on", async () => {
      const running = await start({ API_KEYS: STAY }, await which())
      try {
        for (let i = 0; i < 3; i++) running.proc.kill("SIGHUP")
        await until(() => count(running.stdout(), "SIGHUP ignored: no API_KEYS_FILE to re-read") >= 1)
        expect(await status(running.base, STAY)).toBe(200)
        expect(running.proc.exitCode).toBeNull()
      } finally {
        expect(await running.stop()).toBe(0)
      }
    })
  })
