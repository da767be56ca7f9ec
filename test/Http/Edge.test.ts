import { afterAll, describe, expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { UserAgents } from "../../src/Tools/UserAgent/Service.ts"
import { Estimator } from "../../src/Tools/Wage/Estimator.ts"
import { until } from "../support/Poll.ts"
import { CHROME_WINDOWS, errorOf, json, KEY, makeTestApp, UA_PATH, WAGE_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 10_000, env: { MAX_BODY_BYTES: "256" } })
afterAll(() => app.dispose())

describe("routing", () => {
  test("an unknown path is 404 with the envelope", async () => {
    for (const [method, path] of [
      ["GET", "/nope"],
      ["POST", "/v1/tools/unknown"],
      ["GET", "/v2/tools/wage-estimator"]
    ]) {
      const error = await errorOf(await app.request(path!, { method: method! }), 404, "not_found")
      expect(error.message).toContain(path!)
    }
  })

  test("a known path with another method is 405 with Allow", async () => {
    for (const path of [UA_PATH, WAGE_PATH]) {
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        const response = await app.request(path, { method, headers: { authorization: `Bearer ${KEY}` } })
        await errorOf(response, 405, "method_not_allowed")
        expect(response.headers.get("allow")).toBe("POST")
      }
    }
    const health = await app.request("/health", { method: "POST" })
    await errorOf(health, 405, "method_not_allowed")
    expect(health.headers.get("allow")).toBe("GET")
  })
})

describe("long paths", () => {
  test("a message quotes at most 64 characters of the path, cut with an ellipsis, however long it is", async () => {
    const long = `/${"a".repeat(15_000)}`
    const response = await app.request(long)
    const text = await response.clone().text()
    expect(text.length).toBeLessThan(300)
    const error = await errorOf(response, 404, "not_found")
    expect(error.message).toBe(`No route for ${long.slice(0, 64)}…`)
    // a path that reaches a route however long it is spelled: its 405 is clipped the same way
    const slashes = `${"/".repeat(15_000)}v1/tools/wage-estimator`
    const get = await app.request(slashes)
    const refused = await errorOf(get, 405, "method_not_allowed")
    expect(refused.message).toBe(`GET is not allowed on ${"/".repeat(64)}…; use POST`)
    // at 64 characters or fewer the path is quoted whole
    const short = `/${"b".repeat(63)}`
    expect((await errorOf(await app.request(short), 404, "not_found")).message).toBe(`No route for ${short}`)
  })
})

describe("headers on every response", () => {
  test("X-Request-Id: the client's own when sane, otherwise a new one", async () => {
    const own = await app.request("/health", { headers: { "x-request-id": "abc-123_XYZ" } })
    expect(own.headers.get("x-request-id")).toBe("abc-123_XYZ")
    const max = "r".repeat(128)
    expect((await app.request("/health", { headers: { "x-request-id": max } })).headers.get("x-request-id")).toBe(max)
    for (const insane of ["r".repeat(129), "has space", "tab\there", "é"]) {
      const response = await app.request("/health", {
        headers: { "x-request-id": encodeURI(insane) === insane ? insane : insane }
      })
      const id = response.headers.get("x-request-id")
      expect(id).not.toBe(insane)
      expect(id).toMatch(/^[\x21-\x7e]{1,128}$/)
    }
    const a = (await app.request("/nowhere")).headers.get("x-request-id")
    const b = (await app.post(WAGE_PATH, {}, { key: null })).headers.get("x-request-id")
    expect(a).not.toBeNull()
    expect(b).not.toBeNull()
    expect(a).not.toBe(b)
  })

  test("nosniff and no-store, on successes and errors", async () => {
    for (const response of [
      await app.request("/health"),
      await app.request("/nowhere"),
      await app.post(WAGE_PATH, { hourlyWage: 1 })
    ]) {
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
      expect(response.headers.get("cache-control")).toBe("no-store")
    }
  })
})

describe("request bodies", () => {
  test("Content-Type: application/json with parameters, or absent, is accepted", async () => {
    for (const type of ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON;charset=UTF-8"]) {
      expect((await app.post(WAGE_PATH, { hourlyWage: 1 }, { headers: { "content-type": type } })).status).toBe(200)
    }
    const absent = await app.request(WAGE_PATH, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
      body: new TextEncoder().encode(JSON.stringify({ hourlyWage: 1 }))
    })
    expect(absent.status).toBe(200)
  })

  test("any other Content-Type is 400", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonp",
      "application/vnd.api+json"
    ]) {
      const error = await errorOf(
        await app.post(WAGE_PATH, { hourlyWage: 1 }, { headers: { "content-type": type } }),
        400,
        "invalid_request"
      )
      // it names what came and says what to send: curl -d and fetch with a string body are the usual causes
      expect(error.message).toBe(
        `Content-Type must be application/json, got ${JSON.stringify(type)}; send Content-Type: application/json (curl --json)`
      )
    }
  })

  test("a body over MAX_BODY_BYTES is 413 with the envelope", async () => {
    const error = await errorOf(
      await app.post(UA_PATH, { operation: "parse", userAgent: "x".repeat(300) }),
      413,
      "payload_too_large"
    )
    expect(error.message).toContain("256")
    expect((await app.post(UA_PATH, { operation: "parse", userAgent: "x".repeat(200) })).status).toBe(200)
  })
})

describe("bodies without a declared length (chunked)", () => {
  const chunked = (parts: Array<string>) =>
    app.request(WAGE_PATH, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
          controller.close()
        }
      }),
      duplex: "half"
    })

  test("within the limit: read once and decoded", async () => {
    const response = await chunked(['{"hourly', 'Wage": 25', "}"])
    expect(response.status).toBe(200)
    expect((await json(response)).estimates.weekly).toBe(1000)
  })

  test("past the limit: 413 with the envelope", async () => {
    await errorOf(await chunked(['{"pad":"', "x".repeat(200), "y".repeat(200), '"}']), 413, "payload_too_large")
  })
})

describe("system endpoints", () => {
  test("/health", async () => {
    const response = await app.request("/health")
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({ status: "ok" })
  })

  test("/openapi.json is OpenAPI 3.1 with both endpoints and bearer security", async () => {
    const spec = await json(await app.request("/openapi.json"))
    expect(spec.openapi).toStartWith("3.1")
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining([UA_PATH, WAGE_PATH, "/health"]))
    const wage = spec.paths[WAGE_PATH].post
    expect(Object.keys(wage.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "413", "422", "429", "500"])
    )
    expect(JSON.stringify(spec.components.securitySchemes)).toContain("bearer")
  })

  test("/docs is served from the process, with no script, style or font from elsewhere", async () => {
    const response = await app.request("/docs")
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain("<html")
    expect(html.length).toBeGreaterThan(1_000_000) // the reference's JavaScript is inline
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/i)
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/i)
    // The bundle names font hosts in its code; they are only fetched with the default fonts, which are off.
    expect(html).toMatch(/"withDefaultFonts":\s*false/)
  })

  test("/metrics is Prometheus text with requests by route and status", async () => {
    await app.post(WAGE_PATH, { hourlyWage: 2 })
    const response = await app.request("/metrics")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toStartWith("text/plain")
    const text = await response.text()
    expect(text).toMatch(/^http_requests_total\{route="\/v1\/tools\/wage-estimator",status="200"\} \d+$/m)
    expect(text).toContain("# TYPE http_request_duration_seconds histogram")
    expect(text).toMatch(
      /^http_request_duration_seconds_bucket\{route="\/v1\/tools\/wage-estimator",le="\+Inf"\} \d+$/m
    )
    expect(text).not.toContain(KEY)
  })

  test("/metrics counts failed authentications and rate-limited requests by reason", async () => {
    const limited = makeTestApp({ perMinute: 1, authFailuresPerMinute: 1 })
    try {
      const count = async (pattern: RegExp) =>
        Number(pattern.exec(await (await limited.request("/metrics")).text())?.[1] ?? 0)
      const failures = /^auth_failures_total (\d+)$/m
      const byKey = /^rate_limited_total\{reason="key"\} (\d+)$/m
      const byAddress = /^rate_limited_total\{reason="address"\} (\d+)$/m
      const before = [await count(failures), await count(byKey), await count(byAddress)]
      await limited.post(WAGE_PATH, { hourlyWage: 1 })
      await limited.post(WAGE_PATH, { hourlyWage: 1 })
      await limited.post(WAGE_PATH, { hourlyWage: 1 }, { key: "wrong" })
      await limited.post(WAGE_PATH, { hourlyWage: 1 }, { key: "wrong" })
      const after = [await count(failures), await count(byKey), await count(byAddress)]
      expect(after[0]! - before[0]!).toBe(2)
      expect(after[1]! - before[1]!).toBe(1)
      expect(after[2]! - before[2]!).toBe(1)
    } finally {
      await limited.dispose()
    }
  })

  test("METRICS=false turns /metrics off", async () => {
    const off = makeTestApp({ env: { METRICS: "false" } })
    try {
      await errorOf(await off.request("/metrics"), 404, "not_found")
    } finally {
      await off.dispose()
    }
  })
})

describe("draining", () => {
  test("while draining, every request is answered 503 service_unavailable", async () => {
    const draining = makeTestApp()
    try {
      expect((await draining.request("/health")).status).toBe(200)
      const drained = Effect.runPromise(draining.drain.drain())
      await until(() => draining.drain.isDraining())
      for (const response of [await draining.request("/health"), await draining.post(WAGE_PATH, { hourlyWage: 1 })]) {
        await errorOf(response, 503, "service_unavailable")
        expect(response.headers.get("x-request-id")).not.toBeNull()
      }
      expect(await drained).toBe(0)
    } finally {
      await draining.dispose()
    }
  })
})

describe("the in-flight count, which shutdown waits on", () => {
  test("is back to zero after every kind of answer, a client that gave up included", async () => {
    const counted = makeTestApp({ perMinute: 5, env: { MAX_BODY_BYTES: "256" } })
    try {
      const answers = [
        await counted.post(WAGE_PATH, { hourlyWage: 20 }),
        await counted.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS }),
        await counted.post(WAGE_PATH, "{", { raw: true }),
        await counted.post(WAGE_PATH, { hourlyWage: -1 }),
        await counted.post(UA_PATH, { operation: "parse", userAgent: "x".repeat(300) }),
        await counted.post(WAGE_PATH, { hourlyWage: 20 }), // the sixth in a minute of five
        await counted.post(WAGE_PATH, {}, { key: null }),
        await counted.post(WAGE_PATH, { hourlyWage: 1 }, { key: "wrong" }),
        await counted.request("/nowhere"),
        await counted.request(WAGE_PATH, { method: "GET" }),
        await counted.request("/health"),
        await counted.request("/metrics")
      ]
      expect(answers.map((response) => response.status)).toEqual([
        200, 200, 400, 422, 413, 429, 401, 401, 404, 405, 200, 200
      ])
      expect(Effect.runSync(counted.drain.inFlight)).toBe(0)

      // A body that never ends, from a client that then goes away: the request is interrupted, and still leaves.
      const fresh = makeTestApp({ env: { MAX_BODY_BYTES: "64" } })
      try {
        const abort = new AbortController()
        const body = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) })
        const pending = fresh.handler(
          new Request(`http://localhost${WAGE_PATH}`, {
            method: "POST",
            headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
            body,
            signal: abort.signal,
            duplex: "half"
          } as RequestInit)
        )
        // counted once the edge has started on it, which a loaded machine may take well over 20 ms to reach
        await until(() => Effect.runSync(fresh.drain.inFlight) === 1)
        abort.abort()
        await pending
        expect(Effect.runSync(fresh.drain.inFlight)).toBe(0)
      } finally {
        await fresh.dispose()
      }
    } finally {
      await counted.dispose()
    }
  })
})

describe("a request cut on the server side", () => {
  test("gets the 503 envelope, not the framework's empty 503 (what shutdown does to one past the deadline)", async () => {
    const cut = makeTestApp({
      services: Layer.merge(
        Layer.succeed(
          UserAgents,
          UserAgents.of({
            parse: () => Effect.interrupt,
            parseMany: () => Effect.interrupt,
            generate: () => Effect.interrupt,
            generateMany: () => Effect.interrupt
          })
        ),
        Estimator.layer
      )
    })
    try {
      const response = await cut.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS })
      await errorOf(response, 503, "service_unavailable")
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(Effect.runSync(cut.drain.inFlight)).toBe(0)
    } finally {
      await cut.dispose()
    }
  })
})

describe("a bug", () => {
  test("is a 500 with the envelope and nothing of the defect in the body", async () => {
    const failing = makeTestApp({
      services: Layer.merge(
        Layer.succeed(
          UserAgents,
          UserAgents.of({
            parse: () => Effect.die(new Error("secret stack detail at /srv/app/x.ts")),
            generate: () => Effect.die(new Error("boom"))
          } as never)
        ),
        Estimator.layer
      )
    })
    try {
      const response = await failing.post(UA_PATH, { operation: "parse", userAgent: CHROME_WINDOWS })
      const error = await errorOf(response, 500, "internal_error")
      expect(JSON.stringify(error)).not.toMatch(/secret|stack|\/srv|Error/)
      expect(response.headers.get("x-request-id")).not.toBeNull()
      expect(Effect.runSync(failing.drain.inFlight)).toBe(0)
    } finally {
      await failing.dispose()
    }
  })
})

describe("the headers every answer carries", () => {
  test("its own (type, length), the common ones, the caller's limits and the request id, once each", async () => {
    const response = await app.post(WAGE_PATH, { hourlyWage: 25 }, { headers: { "x-request-id": "h-1" } })
    const body = await response.arrayBuffer()
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(response.headers.get("content-length")).toBe(String(body.byteLength))
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("x-request-id")).toBe("h-1")
    expect(response.headers.get("x-ratelimit-limit")).toBe("10000")
    for (const [name] of response.headers) expect(response.headers.get(name)).not.toContain(", ")
  })

  test("a HEAD gets the headers of its GET and no body; the docs keep their own cache lifetime", async () => {
    const head = await app.request("/health", { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
    expect(head.headers.get("x-request-id")).toMatch(/\S/)
    const docs = await app.request("/openapi.json")
    expect(docs.headers.get("cache-control")).not.toBe("no-store")
    expect(docs.headers.get("x-content-type-options")).toBe("nosniff")
  })
})
