/**
 * The first `generate` of a process builds the generation pools from the traffic data set (~950 parses). In a real
 * process: requests that come meanwhile are answered meanwhile, not after it; the generate itself waits for it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test"
import { start } from "./support/Process.ts"
import { UA_PATH, WAGE_PATH } from "./support/TestApp.ts"

setDefaultTimeout(60_000)

const KEY = "first-generate-test-key-1"

const post = (base: string, path: string, body: string) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body
  })

describe("the first generate", () => {
  test("other requests are answered while it builds its pools, not behind it; it answers too", async () => {
    const running = await start({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: "1000000" })
    try {
      // warm: the connection, the wage path and the parser, so only the pools are left to build
      expect((await post(running.base, WAGE_PATH, '{"hourlyWage":1}')).status).toBe(200)
      const parse = await post(running.base, UA_PATH, '{"operation":"parse","userAgent":"Mozilla/5.0 (X11; Linux)"}')
      expect(parse.status).toBe(200)

      let generated: number | undefined
      const generating = post(running.base, UA_PATH, '{"operation":"generate","seed":7}').then(async (response) => {
        generated = performance.now()
        return { status: response.status, body: (await response.json()) as { data?: { userAgent?: string } } }
      })
      // a wage request every 5 ms until the generate is answered; when each was sent and answered
      const wages: Array<Promise<readonly [number, number, number]>> = []
      while (generated === undefined) {
        const sent = performance.now()
        wages.push(
          post(running.base, WAGE_PATH, '{"hourlyWage":20}').then((r) => [sent, performance.now(), r.status] as const)
        )
        await Bun.sleep(5)
      }
      const { status, body } = await generating
      expect(status).toBe(200)
      expect(body.data?.userAgent).toStartWith("Mozilla/5.0")
      const answers = await Promise.all(wages)
      expect(answers.every(([, , s]) => s === 200)).toBe(true)
      // blocked, every wage request sent during the build is answered after the generate; sliced, nearly all before
      const before = answers.filter(([, answered]) => answered < generated!).length
      const waits = answers.map(([sent, answered]) => Math.round(answered - sent)).sort((a, b) => a - b)
      const figures = { sent: answers.length, before, medianWaitMs: waits[waits.length >> 1], maxWaitMs: waits.at(-1) }
      // the figures show when it fails
      expect({ figures, enough: answers.length >= 10 && before / answers.length >= 0.7 }).toEqual({
        figures,
        enough: true
      })
    } finally {
      await running.stop()
    }
  })
})
