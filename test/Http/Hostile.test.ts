/**
 * Hostile input through the real HttpApi in process: whatever arrives, the answer is one the contract names (never
 * a 5xx), with the envelope or the route's success shape, and nothing leaks into the process (no prototype
 * pollution). What only a real socket shows (raw bytes, huge headers, raw methods) is in test/HostileSocket.test.ts.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { depthOf, MAX_JSON_DEPTH } from "../../src/JsonBody.ts"
import { ToolsApi } from "../../src/Api.ts"
import { expectWithinContract } from "../support/Contract.ts"
import { errorOf, json, KEY, makeTestApp, UA_PATH, WAGE_PATH } from "../support/TestApp.ts"

const app = makeTestApp({ perMinute: 1_000_000_000, authFailuresPerMinute: 1_000_000_000 })
/** The same, with a 4 MiB body limit, so the JSON parser and the schemas meet bodies the default 16 KiB refuses. */
const roomy = makeTestApp({
  perMinute: 1_000_000_000,
  authFailuresPerMinute: 1_000_000_000,
  env: { MAX_BODY_BYTES: String(4 << 20) }
})
afterAll(async () => {
  await app.dispose()
  await roomy.dispose()
})

const noPollution = () => {
  const probe: any = {}
  for (const name of ["polluted", "operation", "hourlyWage", "userAgent", "isAdmin"]) {
    if (probe[name] !== undefined || (Object.prototype as any)[name] !== undefined || ([] as any)[name] !== undefined) {
      throw new Error(`Object.prototype.${name} was set`)
    }
  }
}
afterEach(noPollution)

/** Every endpoint that takes a body, from the API. */
const PATHS = Object.values(ToolsApi.groups)
  .flatMap((group) => Object.values(group.endpoints))
  .filter((endpoint) => endpoint.method === "POST")
  .map((endpoint) => endpoint.path)

/** POSTs raw bytes or text with the key, and checks the answer is within the contract. */
const send = async (
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
  target = app
): Promise<Response> => {
  const response = await target.request(path, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", ...headers },
    body
  })
  const answer = await expectWithinContract(response.clone() as Response, { method: "POST", path })
  expect(answer.status).toBeLessThan(500)
  return response
}

describe("property: no input yields a 5xx or a body outside the contract", () => {
  test("any JSON value as the body, both endpoints (200 runs each)", async () => {
    for (const path of PATHS) {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
          await send(path, JSON.stringify(value))
        }),
        { numRuns: 200 }
      )
    }
  }, 30_000)

  test("objects with the real field names and any values, both endpoints (200 runs each)", async () => {
    const anything = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom("parse", "generate", "Chrome", "Safari", "Windows", "iOS", "Mobile", "Desktop", "", " "),
      fc.constantFrom(-0, 0, 5e-324, 1e308, -1, 0.005, 1e9, 1e9 + 1, 2_080_000_000_000, 2_080_000_000_001),
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 })
    )
    const fields = [
      "operation",
      "userAgent",
      "headers",
      "browser",
      "os",
      "deviceType",
      "seed",
      "hourlyWage",
      "annualSalary",
      "__proto__",
      "constructor"
    ]
    const body = fc.dictionary(fc.constantFrom(...fields), anything, { maxKeys: 5 })
    for (const path of PATHS) {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          await send(path, JSON.stringify(value))
        }),
        { numRuns: 200 }
      )
    }
  }, 30_000)

  test("any bytes as the body, both endpoints (200 runs each)", async () => {
    for (const path of PATHS) {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (bytes) => {
          await send(path, bytes)
        }),
        { numRuns: 200 }
      )
    }
  }, 30_000)

  test("any string as userAgent: a 200 that echoes it, or a 400 naming userAgent (300 runs)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 2100 }), async (userAgent) => {
        const response = await send(UA_PATH, JSON.stringify({ operation: "parse", userAgent }))
        if (response.status === 200) expect((await json(response)).data.userAgent).toBe(userAgent)
        else expect((await errorOf(response, 400, "invalid_request")).details?.[0]?.path).toBe("userAgent")
      }),
      { numRuns: 300 }
    )
  }, 30_000)

  test("any Content-Type header (200 runs)", async () => {
    const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
    const contentType = fc.oneof(
      printable,
      printable.map((rest) => `application/json;${rest}`)
    )
    await fc.assert(
      fc.asyncProperty(contentType, async (type) => {
        const response = await send(WAGE_PATH, '{"hourlyWage":1}', { "content-type": type })
        expect([200, 400]).toContain(response.status)
      }),
      { numRuns: 200 }
    )
  }, 30_000)

  test("any Authorization header that is not a valid key is a 401 (200 runs)", async () => {
    const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          printable,
          printable.map((k) => `Bearer ${k}`)
        ),
        async (authorization) => {
          fc.pre(authorization.trim() !== `Bearer ${KEY}`)
          const response = await send(WAGE_PATH, '{"hourlyWage":1}', { authorization })
          expect(response.status).toBe(401)
        }
      ),
      { numRuns: 200 }
    )
  }, 30_000)

  test("any method on any path (300 runs)", async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        "v1",
        "tools",
        "user-agent-parser",
        "wage-estimator",
        "health",
        "docs",
        "metrics",
        "openapi.json"
      ),
      fc.constantFrom("", ".", "..", "%00", "%2F", "%ZZ", "%77age-estimator", "WAGE-ESTIMATOR", "a".repeat(2000)),
      fc.webSegment()
    )
    const path = fc
      .tuple(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.option(fc.webQueryParameters()))
      .map(([segments, query]) => `/${segments.join("/")}${query === null ? "" : `?${query}`}`)
    const method = fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT")
    await fc.assert(
      fc.asyncProperty(method, path, async (method, path) => {
        const response = await app.request(path, {
          method,
          headers: { authorization: `Bearer ${KEY}` },
          ...(method === "GET" || method === "HEAD" ? {} : { body: '{"hourlyWage":1}' })
        })
        await expectWithinContract(response, { method, path })
      }),
      { numRuns: 300 }
    )
  }, 30_000)
})

describe("deep nesting", () => {
  const arrays = (n: number) => "[".repeat(n) + "]".repeat(n)
  const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n)

  test("10,000 and 100,000 levels of [ and {, open or closed, whole body or inside a field: never a 5xx", async () => {
    for (const n of [10_000, 100_000]) {
      for (const path of PATHS) {
        for (const target of [app, roomy]) {
          for (const body of [
            "[".repeat(n),
            "{".repeat(n),
            arrays(n),
            objects(n),
            `{"operation":${arrays(n)}}`,
            `{"operation":"generate","seed":${arrays(n)}}`,
            `{"operation":"parse","userAgent":${objects(n)}}`,
            `{"operation":"parse","userAgent":"x","headers":{"sec-ch-ua":${arrays(n)}}}`,
            `{"hourlyWage":${arrays(n)}}`,
            `{"annualSalary":${objects(n)}}`,
            `{"unknown":${arrays(n)},"hourlyWage":1}`
          ]) {
            const response = await send(path, body, {}, target)
            expect([400, 413, 422]).toContain(response.status)
          }
        }
      }
    }
  }, 30_000)

  test("a value 5,000 arrays deep in a checked field is a 400, not a 500 (it crashed the error message)", async () => {
    // Within the default 16 KiB limit: the case that reached the client as a 500 before the depth limit.
    const response = await send(UA_PATH, `{"operation":${arrays(5_000)}}`)
    const error = await errorOf(response, 400, "invalid_request")
    expect(error.message).toContain(`${MAX_JSON_DEPTH} levels`)
  })

  test(`up to ${MAX_JSON_DEPTH} levels pass the depth check, one more is refused for its depth`, async () => {
    // no field takes nested values: within the limit the answer is about the field, past it about the depth
    const within = JSON.stringify({ hourlyWage: 1, extra: JSON.parse(arrays(MAX_JSON_DEPTH - 1)) })
    const field = await errorOf(await send(WAGE_PATH, within), 400, "invalid_request")
    expect(field.details?.[0]?.path).toBe("extra")
    const over = JSON.stringify({ hourlyWage: 1, extra: JSON.parse(arrays(MAX_JSON_DEPTH)) })
    const deep = await errorOf(await send(WAGE_PATH, over), 400, "invalid_request")
    expect(deep.message).toContain(`${MAX_JSON_DEPTH} levels`)
  })
})

describe("the body's verdict, from its text alone", () => {
  /** The model: the parsed value's nesting, level by level. */
  const depth = (value: unknown): number =>
    typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0
  const tricky = fc.string({ unit: fc.constantFrom("{", "}", "[", "]", '"', "\\", "a", " ", "\u00e9", "\n") })
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      tricky,
      fc.integer(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(tricky, tie("value"), { maxKeys: 3 })
    )
  })).value

  test("depthOf counts the nesting of any JSON value, brackets and quotes inside its strings aside", () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 40 }), (value, wrap) => {
        let deep: unknown = value
        for (let i = 0; i < wrap; i++) deep = i % 2 === 0 ? [deep] : { k: deep }
        expect(depthOf(JSON.stringify(deep, null, wrap % 3))).toBe(depth(deep))
      }),
      { numRuns: 500 }
    )
  })

  test("any text: not JSON, not an object, too deep or passed on, as parsing it would say", async () => {
    const text = fc.oneof(
      json.map((value) => JSON.stringify({ hourlyWage: 1, extra: value })),
      json.map((value) => JSON.stringify(value)),
      fc.tuple(json, tricky).map(([value, tail]) => `{"hourlyWage":1,"x":${JSON.stringify(value)}}${tail}`),
      fc.integer({ min: 30, max: 34 }).map((n) => `{"hourlyWage":1,"x":${"[".repeat(n)}${"]".repeat(n)}}`),
      fc.integer({ min: 30, max: 34 }).map((n) => `{"hourlyWage":1,"x":${"[".repeat(n)}`)
    )
    await fc.assert(
      fc.asyncProperty(text, async (body) => {
        const response = await send(WAGE_PATH, body)
        let parsed: unknown
        try {
          parsed = JSON.parse(body)
        } catch {
          expect((await errorOf(response, 400, "invalid_request")).message).toContain("not valid JSON")
          return
        }
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
          expect((await errorOf(response, 400, "invalid_request")).message).toContain("must be a JSON object")
        } else if (depth(parsed) > MAX_JSON_DEPTH) {
          expect((await errorOf(response, 400, "invalid_request")).message).toContain(`${MAX_JSON_DEPTH} levels`)
        } else {
          expect(response.status === 200 || response.status === 400 || response.status === 422).toBe(true)
          if (response.status !== 200)
            expect(((await response.json()) as any).error.message).not.toContain("not valid JSON")
        }
      }),
      { numRuns: 300 }
    )
  })
})

describe("numbers", () => {
  test("1e400 (Infinity once parsed) is 422 on the wage estimator and 400 as a seed", async () => {
    expect((await errorOf(await send(WAGE_PATH, '{"hourlyWage":1e400}'), 422, "invalid_value")).message).toContain(
      "finite"
    )
    await errorOf(await send(UA_PATH, '{"operation":"generate","seed":1e400}'), 400, "invalid_request")
  })

  test("-0 is not greater than 0: 422", async () => {
    await errorOf(await send(WAGE_PATH, '{"hourlyWage":-0}'), 422, "invalid_value")
    await errorOf(await send(WAGE_PATH, '{"annualSalary":-0.0}'), 422, "invalid_value")
  })

  test("5e-324, the smallest positive number, is valid and rounds to zero cents", async () => {
    const body = await json(await send(WAGE_PATH, '{"hourlyWage":5e-324}'))
    expect(body.estimates).toEqual({ hourly: 0, daily: 0, weekly: 0, biweekly: 0, monthly: 0, annual: 0 })
    await errorOf(await send(UA_PATH, '{"operation":"generate","seed":5e-324}'), 400, "invalid_request")
  })

  test("1e-400 underflows to 0 when parsed: 422", async () => {
    await errorOf(await send(WAGE_PATH, '{"annualSalary":1e-400}'), 422, "invalid_value")
  })
})

describe("object keys", () => {
  test("__proto__, constructor and prototype keys are plain unknown fields, refused by name, and pollute nothing", async () => {
    const bodies: Array<[string, string]> = [
      ['{"__proto__":{"polluted":"yes","isAdmin":true},"hourlyWage":1}', "__proto__"],
      ['{"constructor":{"prototype":{"polluted":"yes"}},"hourlyWage":1}', "constructor"],
      ['{"prototype":{"polluted":"yes"},"hourlyWage":1}', "prototype"],
      ['{"hourlyWage":1,"headers":{"__proto__":{"polluted":"yes"}}}', "headers"]
    ]
    for (const [body, field] of bodies) {
      expect((await errorOf(await send(WAGE_PATH, body), 400, "invalid_request")).details?.[0]?.path).toBe(field)
    }
    noPollution()
  })

  test("fields inherited through __proto__ do not count as given", async () => {
    await errorOf(await send(WAGE_PATH, '{"__proto__":{"hourlyWage":5}}'), 400, "invalid_request")
    const parse = '{"__proto__":{"operation":"parse","userAgent":"x"}}'
    expect((await errorOf(await send(UA_PATH, parse), 400, "invalid_request")).details?.[0]?.path).toBe("__proto__")
  })

  test("client hints named __proto__ or constructor: a 400 for a non-string value, ignored as a string", async () => {
    const proto = '{"operation":"parse","userAgent":"x","headers":{"__proto__":{"sec-ch-ua-platform":"\\"Windows\\""}}}'
    expect((await errorOf(await send(UA_PATH, proto), 400, "invalid_request")).details?.[0]?.path).toBe(
      "headers.__proto__"
    )
    const named = {
      operation: "parse",
      userAgent: "x",
      headers: { constructor: "x", prototype: "y", "sec-ch-ua-platform": '"Windows"' }
    }
    expect((await json(await send(UA_PATH, JSON.stringify(named)))).data.os.name).toBe("Windows")
    noPollution()
  })

  test("a query string with __proto__ and constructor keys pollutes nothing", async () => {
    const path = `${WAGE_PATH}?__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__.isAdmin=1`
    expect((await send(path, '{"hourlyWage":1}')).status).toBe(200)
    noPollution()
  })

  test("duplicate keys: the last one wins, as in JSON.parse", async () => {
    await errorOf(await send(WAGE_PATH, '{"hourlyWage":1,"hourlyWage":-1}'), 422, "invalid_value")
    expect((await json(await send(WAGE_PATH, '{"hourlyWage":-1,"hourlyWage":2}'))).estimates.hourly).toBe(2)
    const ua = '{"operation":"generate","operation":"parse","userAgent":"dup"}'
    expect((await json(await send(UA_PATH, ua))).data.userAgent).toBe("dup")
  })
})

describe("text", () => {
  test("invalid UTF-8 is read with replacement characters, never an error", async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"operation":"parse","userAgent":"a'),
      0xff,
      0xfe,
      0xc0,
      0x80,
      0xed,
      0xa0,
      0x80,
      ...new TextEncoder().encode('b"}')
    ])
    const body = await json(await send(UA_PATH, bytes))
    expect(body.data.userAgent).toStartWith("a\ufffd")
    expect(body.data.userAgent).toEndWith("\ufffdb")
    await errorOf(await send(WAGE_PATH, new Uint8Array([0x7b, 0xff, 0x7d])), 400, "invalid_request")
  })

  test("NUL and control characters: escaped, they are text; raw inside a string, the body is not JSON", async () => {
    const escaped = await json(
      await send(UA_PATH, '{"operation":"parse","userAgent":"a\\u0000b\\u0001\\u001f\\u007f"}')
    )
    expect(escaped.data.userAgent).toBe("a\u0000b\u0001\u001f\u007f")
    expect(escaped.data.browser.name).toBe("Unknown")
    const raw = await send(UA_PATH, '{"operation":"parse","userAgent":"a\u0000b\u0001"}')
    expect((await errorOf(raw, 400, "invalid_request")).message).toContain("not valid JSON")
    const lone = await json(await send(UA_PATH, '{"operation":"parse","userAgent":"\\ud800x\\udfff"}'))
    expect(lone.data.userAgent).toBe("\ud800x\udfff")
  })

  test("a 2,048-character user agent of astral characters is accepted; 2,049 is a 400", async () => {
    const astral = "\u{1F600}\u{1D11E}".repeat(1024)
    const ok = await json(await send(UA_PATH, JSON.stringify({ operation: "parse", userAgent: astral })))
    expect(ok.data.userAgent).toBe(astral)
    const over = await send(UA_PATH, JSON.stringify({ operation: "parse", userAgent: `${astral}\u{1F600}` }))
    expect((await errorOf(over, 400, "invalid_request")).details?.[0]?.path).toBe("userAgent")
  })

  test("a value echoed in an error message is cut short: the error never outgrows the request", async () => {
    const long = "x".repeat(10_000)
    const error = await errorOf(await send(UA_PATH, JSON.stringify({ operation: long })), 400, "invalid_request")
    expect(error.message).toContain("must be one of")
    expect(error.message.length).toBeLessThan(200)
    expect(JSON.stringify(error).length).toBeLessThan(500)
  })
})

describe("headers", () => {
  test("odd Content-Types: empty is refused; application/json with odd or long parameters is JSON", async () => {
    await errorOf(await send(WAGE_PATH, '{"hourlyWage":1}', { "content-type": "" }), 400, "invalid_request")
    for (const type of [
      "application/json;;",
      "application/json; charset=latin1",
      "application/json ; charset=",
      `application/json; x=${"y".repeat(8_000)}`
    ]) {
      expect((await send(WAGE_PATH, '{"hourlyWage":1}', { "content-type": type })).status).toBe(200)
    }
    for (const type of [";application/json", "application/json-seq", `text/plain; x=${"y".repeat(8_000)}`]) {
      await errorOf(await send(WAGE_PATH, '{"hourlyWage":1}', { "content-type": type }), 400, "invalid_request")
    }
  })

  test("a 7 KB Authorization header is an ordinary 401", async () => {
    const response = await send(WAGE_PATH, '{"hourlyWage":1}', { authorization: `Bearer ${"k".repeat(7_168)}` })
    await errorOf(response, 401, "unauthorized")
  })
})

describe("methods and paths", () => {
  const everyPath = [UA_PATH, WAGE_PATH, "/health", "/metrics", "/docs", "/openapi.json", "/", "/nope"]
  const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

  test("every method on every path: 200, 404 or 405 with Allow, all within the contract", async () => {
    for (const path of everyPath) {
      for (const method of methods) {
        const response = await app.request(path, { method, headers: { authorization: `Bearer ${KEY}` } })
        const answer = await expectWithinContract(response, { method, path })
        expect([200, 400, 404, 405]).toContain(answer.status)
      }
    }
  })

  test("extra slashes, a trailing slash or another case reach the route; its 405 and Allow agree", async () => {
    for (const path of ["//v1/tools/wage-estimator", "/v1/tools/wage-estimator/", "/V1/Tools/Wage-Estimator"]) {
      expect((await send(path, '{"hourlyWage":1}')).status).toBe(200)
      const get = await app.request(path)
      await errorOf(get, 405, "method_not_allowed")
      expect(get.headers.get("allow")).toBe("POST")
    }
    const health = await app.request("/health/", { method: "POST" })
    await errorOf(health, 405, "method_not_allowed")
    expect(health.headers.get("allow")).toBe("GET")
  })

  test("%00, bad escapes and very long paths are 404s; query strings are ignored", async () => {
    for (const path of [`${WAGE_PATH}%00`, "/%00", `${WAGE_PATH}%ZZ`, `/${"a".repeat(8_000)}`]) {
      await errorOf(await app.request(path, { method: "POST" }), 404, "not_found")
    }
    expect((await send(`${WAGE_PATH}?x=1&x=2&&=&%ZZ`, '{"hourlyWage":1}')).status).toBe(200)
  })

  test("/metrics labels a request by the route that served it, however its path was spelled", async () => {
    const count = async () => {
      const text = await (await app.request("/metrics")).text()
      return Number(/^http_requests_total\{route="\/v1\/tools\/wage-estimator",status="200"\} (\d+)$/m.exec(text)?.[1])
    }
    const before = await count()
    await send("//v1/tools/wage-estimator/", '{"hourlyWage":1}')
    expect(await count()).toBe(before + 1)
  })
})
