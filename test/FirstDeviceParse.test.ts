/**
 * The device database (vendor and marketing name) is only checked at start; its index and a brand's lookups are
 * built on the first string that needs them. In a real process: the first parse that needs them gets the full
 * answer, and the requests that come meanwhile are answered meanwhile, not behind it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test"
import { start } from "./support/Process.ts"
import { UA_PATH, WAGE_PATH } from "./support/TestApp.ts"

setDefaultTimeout(60_000)

const KEY = "first-device-parse-test-key-1"
const SAMSUNG =
  "Mozilla/5.0 (Linux; Android 14; SM-A536B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/132.0.6834.163 Mobile Safari/537.36"

const post = (base: string, path: string, body: string) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body
  })

type Device = { vendor?: string; model?: string; name?: string }

describe("the device database on its first use", () => {
  test("the first parse that needs it gets the full answer; requests meanwhile are not held behind it", async () => {
    const running = await start({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: "1000000" })
    try {
      const begun = performance.now()
      let parsed: number | undefined
      const parsing = post(running.base, UA_PATH, JSON.stringify({ operation: "parse", userAgent: SAMSUNG })).then(
        async (response) => {
          parsed = performance.now()
          return { status: response.status, body: (await response.json()) as { data?: { device?: Device } } }
        }
      )
      // a wage request every 5 ms for a second and until the parse is answered;
      // when each was sent and answered
      const wages: Array<Promise<readonly [number, number, number]>> = []
      while (parsed === undefined || performance.now() - begun < 1000) {
        const sent = performance.now()
        wages.push(
          post(running.base, WAGE_PATH, '{"hourlyWage":20}').then((r) => [sent, performance.now(), r.status] as const)
        )
        await Bun.sleep(5)
      }
      const { status, body } = await parsing
      expect(status).toBe(200)
      expect(body.data?.device).toMatchObject({ vendor: "Samsung", model: "SM-A536B", name: "Galaxy A53 5G" })
      const answers = await Promise.all(wages)
      expect(answers.every(([, , s]) => s === 200)).toBe(true)
      // most wage requests are answered at once: nothing waits behind the build (no bound on the slowest: on a loaded
      // machine any one request may wait for the scheduler; the build is short enough that none need be answered
      // before the parse is)
      const waits = answers.map(([sent, answered]) => Math.round(answered - sent)).sort((a, b) => a - b)
      const figures = {
        sent: answers.length,
        parseMs: Math.round(parsed! - begun),
        answeredBeforeParse: answers.filter(([, answered]) => answered < parsed!).length,
        medianWaitMs: waits[waits.length >> 1]
      }
      const quick = answers.length >= 50 && figures.medianWaitMs! < 60
      // the figures show when it fails
      expect({ figures, quick }).toEqual({ figures, quick: true })
    } finally {
      await running.stop()
    }
  })
})
