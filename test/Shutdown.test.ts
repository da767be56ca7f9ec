/**
 * Graceful shutdown of a real process, from source and as the compiled binary: a request already in flight (its body
 * still arriving) is answered, everything new gets the 503 envelope (/health included), and the process exits 0.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test"
import { binary } from "./support/Binary.ts"
import { expectWithinContract } from "./support/Contract.ts"
import { start } from "./support/Process.ts"
import { httpRequest, open } from "./support/Socket.ts"
import { errorOf, WAGE_PATH } from "./support/TestApp.ts"

// Each test starts real processes: more than bun test's 5 s on a loaded machine.
setDefaultTimeout(30_000)

const KEY = "shutdown-test-key-1"

const targets: ReadonlyArray<readonly [string, () => Promise<string | undefined>]> = [
  ["from source", async () => undefined],
  ["the compiled binary", binary]
]

/**
 * Polls until /health stops answering 200 (the signal has been handled), and returns that answer. Each poll opens
 * its own connection: a pooled keep-alive connection can be reset by the peer between polls on a loaded machine,
 * which says nothing about draining, so such a poll is simply tried again.
 */
const healthOnceDraining = async (base: string): Promise<Response> => {
  const deadline = Date.now() + 5_000
  for (;;) {
    const response = await fetch(`${base}/health`, { keepalive: false }).catch((error: unknown) => {
      if (Date.now() > deadline) throw error
      return undefined
    })
    if (response !== undefined && (response.status !== 200 || Date.now() > deadline)) return response
    await Bun.sleep(10)
  }
}

/**
 * Returns once the server has answered a /health sent after what was written before on another connection: that
 * answer needs round trips that began after those bytes reached the server, so its event loop has read them first.
 */
const handledBefore = async (base: string) => {
  const health = await fetch(`${base}/health`, { keepalive: false })
  expect(health.status).toBe(200)
}

for (const [name, which] of targets) {
  describe.concurrent(`shutdown, ${name}`, () => {
    test("SIGTERM while a body is arriving: that request is answered, new ones and /health get 503, exit 0", async () => {
      const running = await start({ API_KEYS: KEY }, await which())
      const body = '{"hourlyWage": 25}'
      const slow = open(running.port, 15_000)
      const head = { authorization: `Bearer ${KEY}`, "content-type": "application/json" }
      await slow.write(httpRequest("POST", WAGE_PATH, { ...head, "content-length": String(body.length) }))
      await slow.write(body.slice(0, 5))
      await handledBefore(running.base) // the server has the request's head: it is in flight

      const signalled = Date.now()
      running.proc.kill("SIGTERM")
      const health = await healthOnceDraining(running.base)
      await errorOf(health.clone() as Response, 503, "service_unavailable")
      await expectWithinContract(health, { method: "GET", path: "/health", draining: true })
      expect(health.headers.get("connection")).toBe("close")
      const fresh = await fetch(`${running.base}${WAGE_PATH}`, { method: "POST", headers: head, body })
      await errorOf(fresh, 503, "service_unavailable")

      await slow.write(body.slice(5))
      const answer = await slow.answer
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body).estimates.weekly).toBe(1000)
      expect(await running.proc.exited).toBe(0)
      expect(Date.now() - signalled).toBeLessThan(10_000)
      expect(running.stdout()).toContain('"unfinished":0')
    })

    test("SIGINT: exit 0", async () => {
      const running = await start({ API_KEYS: KEY }, await which())
      expect((await fetch(`${running.base}/health`)).status).toBe(200)
      running.proc.kill("SIGINT")
      expect(await running.proc.exited).toBe(0)
    })
  })
}

describe.concurrent("shutdown deadline", () => {
  test("a request that never finishes holds the exit for 10 s at most; the process still exits 0", async () => {
    const running = await start({ API_KEYS: KEY })
    const stuck = open(running.port, 20_000)
    await stuck.write(
      httpRequest("POST", WAGE_PATH, { authorization: `Bearer ${KEY}`, "content-length": "100" }, '{"hourly')
    )
    await handledBefore(running.base)
    const signalled = Date.now()
    running.proc.kill("SIGTERM")
    expect(await running.proc.exited).toBe(0)
    const waited = Date.now() - signalled
    expect(waited).toBeGreaterThanOrEqual(9_500)
    expect(waited).toBeLessThan(12_000)
    expect(running.stdout()).toContain('"unfinished":1')
    // cut, it still gets the envelope, not the framework's empty 503
    const answer = await stuck.answer
    expect(answer.status).toBe(503)
    expect(JSON.parse(answer.body).error.code).toBe("service_unavailable")
  }, 20_000)
})
