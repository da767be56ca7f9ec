/**
 * `tools-api health`, as the image's HEALTHCHECK and a Kubernetes exec probe run it: the compiled binary against a
 * running binary, with nothing else.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { binary } from "../support/Binary.ts"
import { runOnce, type Running, start } from "../support/Process.ts"

let tools: string
let server: Running
beforeAll(async () => {
  tools = await binary()
  server = await start({ API_KEYS: "health-command-key" }, tools)
}, 120_000)
afterAll(() => server?.stop())

test("exit 0 against the running service, found from PORT and HOST as the service reads them", async () => {
  const { code, stderr } = await runOnce({ PORT: String(server.port), HOST: "0.0.0.0" }, ["health"], tools)
  expect(stderr).toBe("")
  expect(code).toBe(0)
  expect((await runOnce({}, ["health", "--url", `${server.base}/health`], tools)).code).toBe(0)
})

test("exit 1 with one line when nothing listens, or /health answers anything but 200 (draining: 503)", async () => {
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() })
  const port = closed.port
  closed.stop(true)
  const refused = await runOnce({ PORT: String(port), HOST: "127.0.0.1" }, ["health"], tools)
  expect(refused.code).toBe(1)
  expect(refused.stderr).toStartWith(`tools-api health: http://127.0.0.1:${port}/health did not answer`)
  const draining = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("{}", { status: 503 }) })
  try {
    const answer = await runOnce({}, ["health", "--url", `http://127.0.0.1:${draining.port}/health`], tools)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toBe(`tools-api health: http://127.0.0.1:${draining.port}/health answered 503\n`)
  } finally {
    draining.stop(true)
  }
})

test("a service that does not answer in time is unhealthy: exit 1 after --timeout", async () => {
  const stuck = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) })
  try {
    const started = performance.now()
    const answer = await runOnce({}, ["health", "--timeout", "1", "--url", `http://127.0.0.1:${stuck.port}/`], tools)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toContain("did not answer")
    expect(performance.now() - started).toBeLessThan(10_000)
  } finally {
    stuck.stop(true)
  }
})
