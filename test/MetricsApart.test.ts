/**
 * Issue 38, metrics apart: METRICS_PORT serves /metrics on a listener of its own (METRICS_HOST, else HOST), and the
 * public port then answers the path as any unknown one; unset, /metrics stays on the public port (the default kept
 * for deployments that scrape it there). Bad values and WORKERS above 1 are in Config.test.ts.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test"
import { until } from "./support/Poll.ts"
import { start } from "./support/Process.ts"
import { errorOf, KEY, makeTestApp } from "./support/TestApp.ts"

// Real processes on a loaded machine: more than bun test's 5 s.
setDefaultTimeout(30_000)

const metricsPortOf = (stdout: string) => Number(/Metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(stdout)?.[1])

describe("the public port", () => {
  test("serves /metrics by default, and answers it as an unknown path (404) with METRICS_PORT", async () => {
    const unset = makeTestApp()
    const apart = makeTestApp({ env: { METRICS_PORT: "0" } })
    try {
      const served = await unset.request("/metrics")
      expect(served.status).toBe(200)
      expect(await served.text()).toContain("# TYPE auth_failures_total counter")
      await errorOf(await apart.request("/metrics"), 404, "not_found")
      // any method: a path this port does not serve has no methods to allow
      const posted = await apart.request("/metrics", { method: "POST" })
      expect(posted.headers.get("allow")).toBeNull()
      await errorOf(posted, 404, "not_found")
    } finally {
      await Promise.all([unset.dispose(), apart.dispose()])
    }
  })
})

describe("METRICS_PORT, a real process", () => {
  test("/metrics on its own listener, counting the public port's requests; off the public one; METRICS=false wins", async () => {
    const running = await start({ API_KEYS: KEY, METRICS_PORT: "0", METRICS_HOST: "127.0.0.1" })
    try {
      await until(() => metricsPortOf(running.stdout()) > 0)
      const port = metricsPortOf(running.stdout())
      expect(port).not.toBe(running.port)
      expect((await fetch(`${running.base}/health`)).status).toBe(200)
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`)
      expect(scraped.status).toBe(200)
      expect(scraped.headers.get("content-type")).toStartWith("text/plain; version=0.0.4")
      expect(await scraped.text()).toContain('http_requests_total{route="/health",status="200"} 1')
      await errorOf(await fetch(`${running.base}/metrics`), 404, "not_found")
      // the listener serves nothing else: the API stays on the public port
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(404)
    } finally {
      expect(await running.stop()).toBe(0)
    }
    // METRICS=false wins: no listener, and the public port answers 404 as before
    const off = await start({ API_KEYS: KEY, METRICS_PORT: "0", METRICS: "false" })
    try {
      expect((await fetch(`${off.base}/metrics`)).status).toBe(404)
      expect(off.stdout()).not.toContain("Metrics on")
    } finally {
      expect(await off.stop()).toBe(0)
    }
  })
})
