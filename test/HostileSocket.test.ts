/**
 * Hostile input that only a real socket can carry: bytes that are not UTF-8 in bodies, headers and paths, control
 * characters in headers, huge headers, raw and unknown methods, framing tricks. What reaches the app gets an answer
 * within the contract; what Bun's HTTP parser refuses before the app runs is pinned here, as README documents it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { problemWith } from "./support/Contract.ts"
import { type Running, start } from "./support/Process.ts"
import { httpRequest, type RawAnswer, rawRequest } from "./support/Socket.ts"
import { UA_PATH, WAGE_PATH } from "./support/TestApp.ts"

// Each test starts real processes: more than bun test's 5 s on a loaded machine.
setDefaultTimeout(30_000)

const KEY = "hostile-socket-key-1"
let server: Running
beforeAll(async () => {
  server = await start({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: "1000000", AUTH_FAILURES_PER_MINUTE: "1000000" })
})
afterAll(async () => {
  expect(await server.stop()).toBe(0)
})

const bytes = (...parts: Array<string | Array<number>>) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))))

const authorized = { authorization: `Bearer ${KEY}`, "content-type": "application/json" }

/** The answer is the app's, within the contract. */
const expectApp = (answer: RawAnswer, method: string, path: string): RawAnswer => {
  expect(answer.status).toBeDefined()
  const problem = problemWith({ status: answer.status!, headers: answer.headers, body: answer.body }, { method, path })
  expect(problem).toBeUndefined()
  return answer
}

/** The answer is Bun's own refusal, before the app: that status, no body, connection closed, never a 5xx. */
const expectBunRefusal = (answer: RawAnswer, status: number) => {
  expect(answer.status).toBe(status)
  expect(answer.body).toBe("")
  expect(answer.closed).toBe(true)
}

const send = (data: Uint8Array) => rawRequest(server.port, data)

describe("bytes that are not UTF-8", () => {
  test("in a body: read with replacement characters; an answer within the contract on both endpoints", async () => {
    const ua = await send(
      httpRequest("POST", UA_PATH, authorized, bytes('{"operation":"parse","userAgent":"a', [0xff, 0xc0, 0x80], 'b"}'))
    )
    expect(JSON.parse(expectApp(ua, "POST", UA_PATH).body).data.userAgent).toBe("a\ufffd\ufffd\ufffdb")
    for (const body of [bytes([0xff, 0xfe, 0xfd]), bytes('{"hourlyWage":1,"', [0xed, 0xa0, 0x80], '":2}')]) {
      const answer = expectApp(await send(httpRequest("POST", WAGE_PATH, authorized, body)), "POST", WAGE_PATH)
      expect([200, 400]).toContain(answer.status!)
    }
  })

  test("in header values: ignored where unused, an ordinary 401 in Authorization, a new request id", async () => {
    const head = (name: string) =>
      bytes(`GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${name}: a`, [0xff, 0xfe, 0xc0], "z\r\n\r\n")
    expect(expectApp(await send(head("User-Agent")), "GET", "/health").status).toBe(200)
    const id = expectApp(await send(head("X-Request-Id")), "GET", "/health")
    expect(id.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    const auth = bytes(
      `POST ${WAGE_PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\nAuthorization: Bearer `,
      [0xff, 0xfe],
      "\r\n\r\n{}"
    )
    expect(expectApp(await send(auth), "POST", WAGE_PATH).status).toBe(401)
  })

  test("in the path: a 404 with the envelope", async () => {
    const answer = await send(bytes("GET /he", [0xff, 0xfe], "alth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
    expect(expectApp(answer, "GET", "/nowhere").status).toBe(404)
  })
})

describe("text in headers", () => {
  test("a 2,048-character user agent of astral characters is an ordinary header", async () => {
    const astral = "\u{1F600}".repeat(2_048)
    const health = await send(httpRequest("GET", "/health", { "user-agent": astral }))
    expect(expectApp(health, "GET", "/health").status).toBe(200)
    const parse = JSON.stringify({ operation: "parse", userAgent: astral })
    const parsed = expectApp(await send(httpRequest("POST", UA_PATH, authorized, parse)), "POST", UA_PATH)
    expect(JSON.parse(parsed.body).data.userAgent).toBe(astral)
  })

  test("NUL or control characters in a header value: Bun refuses the request with an empty 400", async () => {
    for (const value of ["a\u0000b", "a\u0001b", "a\u001fb", `Bearer ${KEY}\u0000`]) {
      expectBunRefusal(await send(httpRequest("GET", "/health", { "x-anything": value })), 400)
      expectBunRefusal(await send(httpRequest("POST", WAGE_PATH, { authorization: value }, "{}")), 400)
    }
    // tab and DEL pass Bun's parser: the app answers them like any other text
    for (const value of ["a\tb", "a\u007fb"]) {
      expect(
        expectApp(await send(httpRequest("GET", "/health", { "x-anything": value })), "GET", "/health").status
      ).toBe(200)
      const auth = await send(httpRequest("POST", WAGE_PATH, { authorization: `Bearer ${value}` }, "{}"))
      expect(expectApp(auth, "POST", WAGE_PATH).status).toBe(401)
    }
  })
})

describe("header size", () => {
  test("a 7 KB or 15 KB Authorization header is an ordinary 401", async () => {
    for (const size of [7 * 1024, 15 * 1024]) {
      const answer = await send(httpRequest("POST", WAGE_PATH, { authorization: `Bearer ${"k".repeat(size)}` }, "{}"))
      expect(expectApp(answer, "POST", WAGE_PATH).status).toBe(401)
    }
  })

  test("past 16 KB of headers (or request line), Bun answers an empty 431 before the app; never a 5xx", async () => {
    for (const size of [16 * 1024, 64 * 1024, 1024 * 1024]) {
      expectBunRefusal(await send(httpRequest("POST", WAGE_PATH, { authorization: `Bearer ${"k".repeat(size)}` })), 431)
      expectBunRefusal(await send(httpRequest("GET", `/${"a".repeat(size)}`, {})), 431)
    }
    const many = Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`x-h${i}`, "1234567"]))
    expectBunRefusal(await send(httpRequest("GET", "/health", many)), 431)
    // and the server is unharmed
    expect(expectApp(await send(httpRequest("GET", "/health", {})), "GET", "/health").status).toBe(200)
  })
})

describe("methods", () => {
  const paths = [UA_PATH, WAGE_PATH, "/health", "/metrics", "/docs", "/openapi.json", "/nope"]
  const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "QUERY"]

  test("every method Bun knows, on every path: 200, 404 or 405 with Allow, within the contract", async () => {
    for (const path of paths) {
      for (const method of methods) {
        const answer = expectApp(await send(httpRequest(method, path, authorized, "{}")), method, path)
        expect([200, 400, 404, 405]).toContain(answer.status!)
      }
    }
  })

  test("an unknown or lower-case method token: Bun closes the connection without an answer", async () => {
    for (const method of ["FOO", "get", "BREW"]) {
      const answer = await send(httpRequest(method, "/health", {}))
      expect(answer.status).toBeUndefined()
      expect(answer.closed).toBe(true)
    }
  })
})

describe("paths and framing", () => {
  test("odd paths and request targets reach the router: 200, 404 or 405, within the contract", async () => {
    for (const [path, status] of [
      ["//v1/tools/wage-estimator", 200],
      ["/v1/tools/wage-estimator/", 200],
      [`${WAGE_PATH}?a=1&a=2&%ZZ&__proto__[x]=1`, 200],
      [`http://localhost${WAGE_PATH}`, 200],
      [`${WAGE_PATH}%00`, 404],
      ["/%00", 404],
      [`/${"a".repeat(8_000)}`, 404]
    ] as const) {
      const answer = await send(httpRequest("POST", path, authorized, '{"hourlyWage":1}'))
      expect(expectApp(answer, "POST", path.replace("http://localhost", "")).status).toBe(status)
    }
  })

  test("HTTP/1.0 and Expect: 100-continue are served", async () => {
    expect(expectApp(await send(bytes("GET /health HTTP/1.0\r\n\r\n")), "GET", "/health").status).toBe(200)
    const expecting = httpRequest("POST", WAGE_PATH, { ...authorized, expect: "100-continue" }, '{"hourlyWage":1}')
    expect(expectApp(await send(expecting), "POST", WAGE_PATH).status).toBe(200)
  })

  test("ambiguous framing (request smuggling) is refused by Bun with an empty 400", async () => {
    const body = '{"hourlyWage":1}'
    const head = `POST ${WAGE_PATH} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n`
    for (const framing of [
      `Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}\r\n\r\n${body}`,
      `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n${body}\r\n0\r\n\r\n`,
      `Transfer-Encoding: chunked\r\n\r\nZZ\r\n${body}\r\n0\r\n\r\n`,
      `Content-Length: -1\r\n\r\n${body}`,
      `Content-Length: 99999999999999999999\r\n\r\n${body}`
    ]) {
      expectBunRefusal(await send(bytes(head, framing)), 400)
    }
    const noHost = bytes("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")
    expectBunRefusal(await send(noHost), 400)
  })
})

describe("a fragment in the request target (no browser sends one; a raw client can)", () => {
  test("is no part of the path: 405 with Allow on another method, the route's own metrics label", async () => {
    const get = expectApp(await send(httpRequest("GET", `${WAGE_PATH}#x`, authorized)), "GET", WAGE_PATH)
    expect(get.status).toBe(405)
    expect(get.headers.get("allow")).toBe("POST")
    const before = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text()
    const count = (text: string) =>
      Number(/http_requests_total\{route="\/v1\/tools\/wage-estimator",status="200"\} (\d+)/.exec(text)?.[1] ?? 0)
    const post = await send(httpRequest("POST", `${WAGE_PATH}#frag`, authorized, '{"hourlyWage":1}'))
    expect(post.status).toBe(200)
    const after = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text()
    expect(count(after)).toBe(count(before) + 1)
  })
})

describe("the Host header, copied into the OpenAPI document's servers without PUBLIC_URL", () => {
  test("only a valid host[:port] is; anything else gives the relative server /", async () => {
    const servers = async (host: string) =>
      JSON.parse((await send(httpRequest("GET", "/openapi.json", { host }))).body).servers
    expect(await servers("api.example.com:8080")).toEqual([{ url: "http://api.example.com:8080" }])
    expect(await servers("[::1]:3000")).toEqual([{ url: "http://[::1]:3000" }])
    for (const host of ['x"y', "evil.test/path", "a b", "user@host", "host:port", "x".repeat(300)]) {
      expect({ host, servers: await servers(host) }).toEqual({ host, servers: [{ url: "/" }] })
    }
  })
})
