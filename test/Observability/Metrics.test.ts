/**
 * /metrics: valid Prometheus text (exposition format 0.0.4) that a scraper accepts, and each series counting what
 * its name says, driven through HTTP. Each test app counts in a registry of its own; the checks compare before and
 * after all the same.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { Context, Effect, Layer, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { Metrics } from "../../src/Observability/Metrics.ts"
import { start } from "../support/Process.ts"
import { spawn } from "../support/Started.ts"
import { CHROME_WINDOWS, KEY, makeTestApp, UA_PATH, WAGE_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 3, authFailuresPerMinute: 2, env: { TRUST_PROXY: "true" } })
afterAll(() => app.dispose())

interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y
const SUFFIXES = { histogram: ["_bucket", "_sum", "_count"], summary: ["", "_sum", "_count"] } as const

/** Parses the text format, throwing on anything a Prometheus scraper would refuse. */
const parse = (text: string) => {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline")
  const types = new Map<string, string>()
  const helps = new Set<string>()
  const samples: Array<Sample> = []
  const finished = new Set<string>()
  let current: string | undefined
  const familyOf = (name: string) => {
    for (const [family, type] of types) {
      const suffixes: ReadonlyArray<string> = SUFFIXES[type as keyof typeof SUFFIXES] ?? [""]
      if (suffixes.some((suffix) => name === family + suffix)) return family
    }
    throw new Error(`sample ${name} has no TYPE line before it`)
  }
  for (const line of text.slice(0, -1).split("\n")) {
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line)
    if (comment !== null) {
      const [, kind, name, rest] = comment as unknown as [string, string, string, string]
      if (!NAME.test(name)) throw new Error(`bad metric name: ${line}`)
      if (kind === "HELP") {
        if (helps.has(name)) throw new Error(`HELP twice for ${name}`)
        helps.add(name)
      } else {
        if (types.has(name)) throw new Error(`TYPE twice for ${name}`)
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(rest)) throw new Error(line)
        if (samples.some((sample) => familyOf(sample.name) === name)) throw new Error(`TYPE after samples: ${line}`)
        types.set(name, rest)
      }
      continue
    }
    const match = SAMPLE.exec(line)
    if (match === null) throw new Error(`not a sample line: ${JSON.stringify(line)}`)
    const [, name, rawLabels = "", rawValue] = match as unknown as [string, string, string | undefined, string]
    const labels: Record<string, string> = {}
    LABEL.lastIndex = 0
    while (LABEL.lastIndex < rawLabels.length) {
      const label = LABEL.exec(rawLabels)
      if (label === null) throw new Error(`bad labels: ${line}`)
      if (label[1]! in labels) throw new Error(`label twice: ${line}`)
      labels[label[1]!] = label[2]!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1")
    }
    const value = rawValue === "+Inf" ? Infinity : rawValue === "-Inf" ? -Infinity : Number(rawValue)
    if (rawValue !== "NaN" && Number.isNaN(value)) throw new Error(`bad value: ${line}`)
    const family = familyOf(name)
    if (family !== current) {
      if (finished.has(family)) throw new Error(`samples of ${family} are not together`)
      if (current !== undefined) finished.add(current)
      current = family
    }
    samples.push({ name, labels, value })
  }
  return { types, samples }
}

const scrape = async (target = app.request("/metrics")) => {
  const response = await target
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
  return parse(await response.text())
}

/** The service's metrics built in a registry of their own, and the context to read that registry with. */
const isolated = () => {
  const registry: Metric.MetricRegistry = new Map()
  const built = Metrics.layer.pipe(Layer.provide(Layer.succeed(Metric.MetricRegistry, registry)))
  const metrics = Effect.runSync(Effect.provide(Effect.service(Metrics), built))
  return { metrics, context: Context.make(Metric.MetricRegistry, registry) }
}

const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0)

describe("/metrics is valid Prometheus text", () => {
  test("every line is a HELP, a TYPE or a sample; HELP and TYPE once per name; families together", async () => {
    await app.post(WAGE_PATH, { hourlyWage: 1 })
    await app.request("/nowhere")
    const { samples, types } = await scrape()
    expect(samples.length).toBeGreaterThan(10)
    for (const name of ["http_requests_total", "auth_failures_total", "rate_limited_total"]) {
      expect(types.get(name)).toBe("counter")
    }
    expect(types.get("http_request_duration_seconds")).toBe("histogram")
  })

  test("no series typed counter can go down: every counter the service registers is incremental", async () => {
    // PrometheusMetrics types every Effect counter `counter`; one that is not incremental may go down (a gauge's job)
    const { metrics, context } = isolated()
    metrics.observe("/x", 200, 1)
    metrics.countAuthFailure()
    metrics.countRateLimited("key")
    metrics.countKeyRequest("key_01234567", true)
    metrics.countCacheHit()
    metrics.countCacheMiss()
    metrics.setStoreUp(true)
    metrics.countStoreFallbacks(1)
    const { types } = parse(PrometheusMetrics.formatUnsafe(context))
    const counters = Metric.snapshotUnsafe(context).filter((metric) => metric.type === "Counter")
    expect(counters.length).toBeGreaterThan(5)
    expect(counters.filter((metric) => !metric.state.incremental).map((metric) => metric.id)).toEqual([])
    for (const { id } of counters) expect(types.get(id)).toBe("counter")
  })

  test("the rate-limit store's series: fallbacks typed counter, the store's state a gauge", () => {
    // a registry of its own, so the check needs no Redis; without Redis (nothing set) neither series is shown
    const { metrics, context } = isolated()
    const store = () =>
      parse(PrometheusMetrics.formatUnsafe(context)).samples.filter((s) => s.name.startsWith("rate_limit_store_"))
    expect(store()).toEqual([])
    metrics.setStoreUp(false)
    metrics.countStoreFallbacks(3)
    const { types } = parse(PrometheusMetrics.formatUnsafe(context))
    expect(types.get("rate_limit_store_fallbacks_total")).toBe("counter")
    expect(types.get("rate_limit_store_up")).toBe("gauge")
    expect(store().map((s) => [s.name, s.value])).toEqual([
      ["rate_limit_store_up", 0],
      ["rate_limit_store_fallbacks_total", 3]
    ])
  })

  test("histograms: cumulative buckets ending in +Inf, which equals _count", async () => {
    const { samples, types } = await scrape()
    for (const [family, type] of types) {
      if (type !== "histogram") continue
      const series = new Map<string, Array<Sample>>()
      for (const sample of samples.filter((s) => s.name === `${family}_bucket`)) {
        const { le, ...rest } = sample.labels
        expect(le).toBeDefined()
        const key = JSON.stringify(rest)
        series.set(key, [...(series.get(key) ?? []), sample])
      }
      expect(series.size).toBeGreaterThan(0)
      for (const [key, buckets] of series) {
        const bounds = buckets.map((b) => (b.labels.le === "+Inf" ? Infinity : Number(b.labels.le)))
        expect(bounds.at(-1)).toBe(Infinity)
        for (let i = 1; i < buckets.length; i++) {
          expect(bounds[i]!).toBeGreaterThan(bounds[i - 1]!)
          expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value)
        }
        const count = samples.find((s) => s.name === `${family}_count` && JSON.stringify(s.labels) === key)
        expect(count?.value).toBe(buckets.at(-1)!.value)
      }
    }
  })
})

describe("each series counts what it says", () => {
  test("requests by route and status, and the latency histogram by route", async () => {
    const before = (await scrape()).samples
    await app.post(WAGE_PATH, { hourlyWage: 1 }, { headers: { "x-forwarded-for": "192.0.2.10" } })
    await app.post(WAGE_PATH, { hourlyWage: -1 }, { headers: { "x-forwarded-for": "192.0.2.10" } })
    await app.request("/health")
    await app.request("/no/such/path")
    const after = (await scrape()).samples
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels)
    const wage = { route: WAGE_PATH }
    expect(delta("http_requests_total", { ...wage, status: "200" })).toBe(1)
    expect(delta("http_requests_total", { ...wage, status: "422" })).toBe(1)
    expect(delta("http_requests_total", { route: "/health", status: "200" })).toBe(1)
    expect(delta("http_requests_total", { route: "unmatched", status: "404" })).toBe(1)
    expect(delta("http_request_duration_seconds_count", wage)).toBe(2)
    expect(delta("http_request_duration_seconds_bucket", { ...wage, le: "+Inf" })).toBe(2)
    expect(delta("http_request_duration_seconds_sum", wage)).toBeGreaterThan(0)
  })

  test("rate_limited_total by reason and auth_failures_total", async () => {
    const before = (await scrape()).samples
    const from = { "x-forwarded-for": "192.0.2.99" }
    for (let i = 0; i < 3; i++) await app.post(WAGE_PATH, { hourlyWage: 1 }, { key: "wrong", headers: from })
    for (let i = 0; i < 4; i++) await app.post(WAGE_PATH, { hourlyWage: 1 }, { headers: from })
    const after = (await scrape()).samples
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels)
    expect(delta("auth_failures_total")).toBe(3) // the third one was also limited
    expect(delta("rate_limited_total", { reason: "address" })).toBe(1)
    expect(delta("rate_limited_total", { reason: "key" })).toBeGreaterThanOrEqual(1)
    expect(delta("http_requests_total", { route: WAGE_PATH, status: "429" })).toBe(
      delta("rate_limited_total", { reason: "address" }) + delta("rate_limited_total", { reason: "key" })
    )
  })

  test("user-agent parse cache: a new string is a miss, the same again a hit; client hints bypass it", async () => {
    const cached = makeTestApp({ perMinute: 1_000 })
    try {
      const counts = async () => {
        const { samples } = await scrape(cached.request("/metrics"))
        return [valueOf(samples, "ua_parse_cache_hits_total"), valueOf(samples, "ua_parse_cache_misses_total")]
      }
      const userAgent = `${CHROME_WINDOWS} metrics-test/${crypto.randomUUID()}`
      const [hits0, misses0] = await counts()
      await cached.post(UA_PATH, { operation: "parse", userAgent })
      expect(await counts()).toEqual([hits0!, misses0! + 1])
      await cached.post(UA_PATH, { operation: "parse", userAgent })
      await cached.post(UA_PATH, { operation: "parse", userAgent })
      expect(await counts()).toEqual([hits0! + 2, misses0! + 1])
      const hints = { "sec-ch-ua-platform": '"Windows"', "sec-ch-ua-platform-version": '"15.0.0"' }
      await cached.post(UA_PATH, { operation: "parse", userAgent, headers: hints })
      expect(await counts()).toEqual([hits0! + 2, misses0! + 1])
    } finally {
      await cached.dispose()
    }
  })

  test("a fresh server exports its counters at 0 before the first event", async () => {
    const server = await start({ API_KEYS: KEY })
    try {
      const { samples, types } = await scrape(fetch(`${server.base}/metrics`))
      for (const name of ["auth_failures_total", "ua_parse_cache_hits_total", "ua_parse_cache_misses_total"]) {
        expect(types.get(name)).toBe("counter")
        expect(samples.find((s) => s.name === name)?.value).toBe(0)
      }
      for (const reason of ["key", "address"]) {
        expect(samples.find((s) => s.name === "rate_limited_total" && s.labels.reason === reason)?.value).toBe(0)
      }
    } finally {
      await server.stop()
    }
  }, 30_000)
})

describe("metrics belong to the program that builds them", () => {
  test("two applications in one process count apart: each /metrics shows only its own requests", async () => {
    const first = makeTestApp()
    const second = makeTestApp()
    try {
      for (let i = 0; i < 3; i++) await first.post(WAGE_PATH, { hourlyWage: 1 })
      const requests = async (target: typeof first) =>
        valueOf((await scrape(target.request("/metrics"))).samples, "http_requests_total", { route: WAGE_PATH })
      expect(await requests(first)).toBe(3)
      expect(await requests(second)).toBe(0)
    } finally {
      await Promise.all([first.dispose(), second.dispose()])
    }
  })

  test("importing the server's modules registers no metric and opens no descriptor", async () => {
    // standard output a pipe: the logger's sink reopens a pipe without blocking, which an import must not do yet
    const script = [
      `import { readdirSync } from "node:fs"`,
      `import { Context, Metric } from "effect"`,
      `const before = readdirSync("/proc/self/fd").length`,
      `await import(${JSON.stringify(`${import.meta.dir}/../../src/Platform/Server.ts`)})`,
      `await import(${JSON.stringify(`${import.meta.dir}/../../src/Cli/index.ts`)})`,
      `const opened = readdirSync("/proc/self/fd").length - before`,
      `const registered = Metric.snapshotUnsafe(Context.empty()).map((metric) => metric.id)`,
      `process.stderr.write(JSON.stringify({ opened, registered }))`
    ].join("\n")
    const child = spawn([process.execPath, "-e", script], {
      cwd: `${import.meta.dir}/../..`,
      stdout: "pipe",
      stderr: "pipe"
    })
    try {
      const [report] = await Promise.all([new Response(child.stderr).text(), new Response(child.stdout).text()])
      expect(await child.exited).toBe(0)
      expect(JSON.parse(report)).toEqual({ opened: 0, registered: [] })
    } finally {
      child.kill()
    }
  })
})
