/**
 * OTLP export, asserted on what reaches an OTLP/HTTP receiver run in the test (`Bun.serve` on port 0): span names,
 * attributes, the trace continued from `traceparent`, child spans, no key material; nothing sent when off; a
 * collector that is down or hangs costs the requests nothing.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { Tracer } from "effect"
import { sha256Hex } from "../../src/Services/KeyFile.ts"
import { until } from "../support/Poll.ts"
import { start } from "../support/Process.ts"
import type { Env } from "../../src/Config.ts"
import { KEY, makeTestApp, WAGE_PATH } from "../support/TestApp.ts"

interface Received {
  readonly path: string
  readonly contentType: string
  readonly headers: Headers
  readonly body: Uint8Array
}

/** An OTLP/HTTP collector that keeps every export it is sent. */
const receiver = (answer: () => Response | Promise<Response> = () => new Response("{}")) => {
  const received: Array<Received> = []
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const body = new Uint8Array(await request.arrayBuffer())
      const { pathname } = new URL(request.url)
      received.push({
        path: pathname,
        contentType: request.headers.get("content-type") ?? "",
        headers: request.headers,
        body
      })
      return answer()
    }
  })
  return { received, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

const collector = receiver()
afterAll(() => collector.stop())

/** Fast exports, so a test waits milliseconds; the app's scope closing flushes what is left. */
const FAST = { OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_BLRP_SCHEDULE_DELAY: "50", OTEL_METRIC_EXPORT_INTERVAL: "100" }

/** Runs `use` against an app with these variables, then closes it (which flushes the exporters). */
const withApp = async (
  env: Env,
  use: (app: ReturnType<typeof makeTestApp>, logs: ReadonlyArray<string>) => Promise<void>
) => {
  const logs: Array<string> = []
  const app = makeTestApp({ env, logs })
  try {
    await use(app, logs)
  } finally {
    await app.dispose()
  }
}

interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>
}

const spansIn = (exports: ReadonlyArray<Received>): Array<Span> =>
  exports
    .filter((r) => r.path === "/v1/traces")
    .flatMap((r) => JSON.parse(new TextDecoder().decode(r.body)).resourceSpans)
    .flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans))

const attribute = (span: Span, key: string): unknown => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

const since = (start: number) => collector.received.slice(start)

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
const PARENT_ID = "00f067aa0ba902b7"

describe("what a request's trace holds", () => {
  test("one server span per request named by its route, with method, route, status and key id; traceparent continued", async () => {
    const start = collector.received.length
    await withApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...FAST }, async (app) => {
      const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`
      const response = await app.post(WAGE_PATH, { hourlyWage: 25 }, { headers: { traceparent } })
      expect(response.status).toBe(200)
    })
    const spans = spansIn(since(start))
    const server = spans.find((s) => s.name === `POST ${WAGE_PATH}`)
    expect(server).toBeDefined()
    expect(server!.kind).toBe(2) // server
    expect(server!.traceId).toBe(TRACE_ID)
    expect(server!.parentSpanId).toBe(PARENT_ID)
    expect(attribute(server!, "http.request.method")).toBe("POST")
    expect(attribute(server!, "http.route")).toBe(WAGE_PATH)
    expect(attribute(server!, "http.response.status_code")).toBe(200)
    expect(attribute(server!, "tools_api.key_id")).toBe(`key_${sha256Hex(KEY).slice(0, 8)}`)
    const children = spans.filter((s) => s.parentSpanId === server!.spanId).map((s) => s.name)
    expect(children.sort()).toEqual(["rate-limit", "tool wageEstimator"])
    for (const child of spans.filter((s) => s.parentSpanId === server!.spanId)) expect(child.traceId).toBe(TRACE_ID)
  })

  test("bounded names: an unknown path is named by its method alone; a 401 and a 429 are spans too", async () => {
    const start = collector.received.length
    await withApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...FAST }, async (app) => {
      expect((await app.request(`/no/such/${crypto.randomUUID()}`)).status).toBe(404)
      expect((await app.post(WAGE_PATH, { hourlyWage: 1 }, { key: "not-a-key" })).status).toBe(401)
    })
    const spans = spansIn(since(start))
    const unknown = spans.find((s) => attribute(s, "http.response.status_code") === 404)
    expect(unknown?.name).toBe("GET")
    const refused = spans.find((s) => attribute(s, "http.response.status_code") === 401)
    expect(refused?.name).toBe(`POST ${WAGE_PATH}`)
    expect(attribute(refused!, "tools_api.key_id")).toBeUndefined()
    expect(spans.some((s) => s.name === "rate-limit auth-failure" && s.parentSpanId === refused!.spanId)).toBe(true)
  })
})

describe("sampling: OTEL_TRACES_SAMPLER", () => {
  const sampledIds = async (env: Env, traceparents: ReadonlyArray<string | undefined>) => {
    const start = collector.received.length
    await withApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...env, ...FAST }, async (app) => {
      for (const traceparent of traceparents) {
        const headers: Record<string, string> = traceparent === undefined ? {} : { traceparent }
        expect((await app.post(WAGE_PATH, { hourlyWage: 25 }, { headers })).status).toBe(200)
      }
    })
    const spans = spansIn(since(start))
    return { servers: spans.filter((s) => s.kind === 2).map((s) => s.traceId), all: spans, paths: since(start) }
  }
  const SAMPLED = `00-${TRACE_ID}-${PARENT_ID}-01`
  const UNSAMPLED = `00-${"ab".repeat(16)}-${PARENT_ID}-00`

  test("the default (parentbased_always_on): every new trace, and a traceparent's decision", async () => {
    const { servers } = await sampledIds({}, [undefined, SAMPLED, UNSAMPLED])
    expect(servers.length).toBe(2)
    expect(servers).toContain(TRACE_ID)
  })

  test("always_off, or a ratio of 0: no trace at all, while metrics and logs still go", async () => {
    for (const env of [
      { OTEL_TRACES_SAMPLER: "always_off" },
      { OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }
    ]) {
      const { all, paths } = await sampledIds(env, [undefined, SAMPLED])
      expect(all).toEqual([])
      expect(paths.some((r) => r.path === "/v1/metrics")).toBe(true)
    }
  })

  test("parentbased_always_off: only traces a caller's traceparent sampled, with their child spans", async () => {
    const { all, servers } = await sampledIds({ OTEL_TRACES_SAMPLER: "parentbased_always_off" }, [undefined, SAMPLED])
    expect(servers).toEqual([TRACE_ID])
    expect(all.map((s) => s.name).sort()).toEqual([`POST ${WAGE_PATH}`, "rate-limit", "tool wageEstimator"])
  })
})

describe("OTLP export, the defaults", () => {
  test("the endpoint alone exports traces, metrics and logs (JSON), with no key material anywhere", async () => {
    const start = collector.received.length
    const wrongKey = `wrong-${crypto.randomUUID()}`
    await withApp({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`, ...FAST }, async (app, logs) => {
      expect((await app.post(WAGE_PATH, { hourlyWage: 25 })).status).toBe(200)
      expect((await app.post(WAGE_PATH, { hourlyWage: 25 }, { key: wrongKey })).status).toBe(401)
      await until(() => logs.length >= 2)
      // exported beside the service's own log, not instead of it
      expect(logs.map((line) => JSON.parse(line).annotations.status)).toEqual([200, 401])
    })
    const exports = since(start)
    expect(new Set(exports.map((r) => r.path))).toEqual(new Set(["/v1/traces", "/v1/metrics", "/v1/logs"]))
    for (const r of exports) expect(r.contentType).toBe("application/json")
    const all = Buffer.concat(exports.map((r) => r.body)).toString("latin1")
    expect(all).toContain(`POST ${WAGE_PATH}`)
    expect(all).toContain("http_requests_total")
    expect(all).toContain("tools-api") // service.name, by default
    for (const secret of [KEY, wrongKey, sha256Hex(KEY).slice(0, 32), sha256Hex(wrongKey).slice(0, 32)]) {
      expect(all).not.toContain(secret)
    }
  })

  test("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: binary protobuf, the same names, no key material", async () => {
    const start = collector.received.length
    await withApp(
      { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf", ...FAST },
      async (app) => void expect((await app.post(WAGE_PATH, { hourlyWage: 25 })).status).toBe(200)
    )
    const traces = since(start).filter((r) => r.path === "/v1/traces")
    expect(traces.length).toBeGreaterThan(0)
    for (const r of traces) expect(r.contentType).toBe("application/x-protobuf")
    const all = Buffer.concat(traces.map((r) => r.body)).toString("latin1")
    expect(all).toContain(`POST ${WAGE_PATH}`)
    expect(all).toContain("tool wageEstimator")
    expect(all).not.toContain(KEY)
    expect(all).not.toContain(sha256Hex(KEY).slice(0, 32))
  })

  test("headers, service name and resource attributes from the standard variables", async () => {
    const start = collector.received.length
    await withApp(
      {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/custom/traces`,
        OTEL_METRICS_EXPORTER: "none",
        OTEL_LOGS_EXPORTER: "none",
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-token=s%20cret",
        OTEL_SERVICE_NAME: "tools-api-test",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
        ...FAST
      },
      async (app) => void (await app.request("/health"))
    )
    const exports = since(start)
    expect(exports.map((r) => r.path)).toEqual(exports.map(() => "/custom/traces"))
    expect(exports.length).toBeGreaterThan(0)
    expect(exports[0]!.headers.get("x-collector-token")).toBe("s cret")
    const resource = JSON.parse(new TextDecoder().decode(exports[0]!.body)).resourceSpans[0].resource
    const attributes = Object.fromEntries(resource.attributes.map((a: any) => [a.key, Object.values(a.value)[0]]))
    expect(attributes["service.name"]).toBe("tools-api-test")
    expect(attributes["deployment.environment"]).toBe("test")
  })

  test("nothing is sent when export is off: no endpoint, OTEL_SDK_DISABLED, or every exporter none", async () => {
    const start = collector.received.length
    const off = [
      {},
      { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SDK_DISABLED: "true" },
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_TRACES_EXPORTER: "none",
        OTEL_METRICS_EXPORTER: "none",
        OTEL_LOGS_EXPORTER: "none"
      }
    ]
    for (const env of off) {
      await withApp({ ...env, ...FAST }, async (app) => {
        const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`
        expect((await app.post(WAGE_PATH, { hourlyWage: 25 }, { headers: { traceparent } })).status).toBe(200)
        await Bun.sleep(150)
      })
    }
    expect(since(start)).toEqual([])
  })
})

describe("with no trace exporter", () => {
  test("no span is made: not the server's for the request, nor the rate limit's or the tool's", async () => {
    const made: Array<string> = []
    const counting = Tracer.make({
      span: (options) => {
        made.push(options.name)
        return Tracer.nativeTracer.span(options)
      }
    })
    for (const env of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_EXPORTER: "none", ...FAST }]) {
      const app = makeTestApp({ env, tracer: counting })
      try {
        const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`
        expect((await app.post(WAGE_PATH, { hourlyWage: 25 }, { headers: { traceparent } })).status).toBe(200)
        expect((await app.post(WAGE_PATH, { hourlyWage: 25 }, { key: "not-a-key" })).status).toBe(401)
      } finally {
        await app.dispose()
      }
    }
    expect(made).toEqual([])
  })
})

describe("a collector that fails costs the requests nothing", () => {
  /** 50 requests against an app exporting to `endpoint`, then a pause in which exports fail; the default log level. */
  const run = async (env: Env, use: () => Promise<void> = () => Bun.sleep(400)) => {
    const logs: Array<string> = []
    const app = makeTestApp({ env: { ...env, ...FAST, LOG_LEVEL: "info" }, logs })
    try {
      const started = performance.now()
      for (let i = 0; i < 50; i++) expect((await app.post(WAGE_PATH, { hourlyWage: 25 })).status).toBe(200)
      const elapsed = performance.now() - started
      await use()
      return { elapsed, logs }
    } finally {
      await app.dispose()
    }
  }

  test("down (connection refused): requests answered at once; the request lines only, nothing from the exporters", async () => {
    const closed = receiver()
    closed.stop()
    const { elapsed, logs } = await run({ OTEL_EXPORTER_OTLP_ENDPOINT: closed.url, OTEL_EXPORTER_OTLP_TIMEOUT: "200" })
    expect(elapsed).toBeLessThan(2_000)
    expect(logs.length).toBe(50)
    for (const line of logs) expect(JSON.parse(line).message).toBe("request")
  })

  test("hanging (never answers): each export is cut at OTEL_EXPORTER_OTLP_TIMEOUT; requests unaffected", async () => {
    let aborted = 0
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => {
        request.signal.addEventListener("abort", () => aborted++)
        return new Promise<Response>(() => {})
      }
    })
    try {
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${server.port}`, OTEL_EXPORTER_OTLP_TIMEOUT: "100" }
      // the exports started while the requests ran were abandoned at their deadline, not left waiting
      const { elapsed } = await run(env, async () => {
        for (let waited = 0; aborted === 0 && waited < 5_000; waited += 50) await Bun.sleep(50)
        expect(aborted).toBeGreaterThan(0)
      })
      expect(elapsed).toBeLessThan(2_000)
    } finally {
      server.stop(true)
    }
  }, 15_000)
})

describe("a real process", () => {
  test("on SIGTERM what is buffered is sent, then exit 0; with the collector down, exit 0 too and nothing on stderr", async () => {
    const startedAt = collector.received.length
    // exports only at shutdown: the intervals are far longer than the test
    const slow = { OTEL_BSP_SCHEDULE_DELAY: "600000", OTEL_BLRP_SCHEDULE_DELAY: "600000" }
    const healthy = await start({ API_KEYS: KEY, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...slow })
    const closed = receiver()
    closed.stop()
    const down = await start({ API_KEYS: KEY, OTEL_EXPORTER_OTLP_ENDPOINT: closed.url, ...slow })
    for (const server of [healthy, down]) {
      const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" }
      const response = await fetch(`${server.base}${WAGE_PATH}`, { method: "POST", headers, body: '{"hourlyWage":25}' })
      expect(response.status).toBe(200)
    }
    expect(spansIn(since(startedAt))).toEqual([])
    expect(await Promise.all([healthy.stop(), down.stop()])).toEqual([0, 0])
    expect(spansIn(since(startedAt)).map((s) => s.name)).toContain(`POST ${WAGE_PATH}`)
    expect(down.stderr()).toBe("")
  }, 30_000)
})
