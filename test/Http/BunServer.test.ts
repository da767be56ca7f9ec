/** The project's HttpServer on Bun.serve, with small apps of its own: what the platform's server promises an app. */
import { afterEach, describe, expect, test } from "bun:test"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Deferred, Effect, Exit, Layer, ManagedRuntime, Option, type Scope } from "effect"
import * as BunServer from "../../src/Http/BunServer.ts"

const options = { port: 0, hostname: "127.0.0.1", reusePort: false, maxRequestBodySize: 1 << 20, idleTimeout: 10 }

let running: ManagedRuntime.ManagedRuntime<HttpServer.HttpServer, never> | undefined
afterEach(async () => {
  await running?.dispose()
  running = undefined
})

/** Serves `app` and returns the base URL; the server closes after the test. */
const serve = async (app: HttpApp.Default<unknown, Scope.Scope>) => {
  running = ManagedRuntime.make(HttpServer.serve(app).pipe(Layer.provideMerge(BunServer.layer(options))) as never)
  const server = await running.runPromise(HttpServer.HttpServer)
  return `http://127.0.0.1:${(server.address as HttpServer.TcpAddress).port}`
}

const text = (body: string) => Effect.succeed(HttpServerResponse.text(body))

describe("each request", () => {
  test("has a scope of its own, closed once its response is ready", async () => {
    let closed = 0
    const base = await serve(
      Effect.zipRight(
        Effect.addFinalizer(() => Effect.sync(() => closed++)),
        text("ok")
      )
    )
    for (let i = 1; i <= 3; i++) {
      const response = await fetch(base)
      expect(await response.text()).toBe("ok")
      expect(closed).toBe(i)
    }
  })

  test("sees the client's socket address, its method and its path with the query", async () => {
    const base = await serve(
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        text(`${Option.getOrElse(request.remoteAddress, () => "none")} ${request.method} ${request.url}`)
      )
    )
    expect(await (await fetch(`${base}/a/b?c=1`, { method: "PUT" })).text()).toBe("127.0.0.1 PUT /a/b?c=1")
  })

  test("is answered with the pre-response handlers applied once, on successes and failures", async () => {
    let calls = 0
    const mark = HttpApp.appendPreResponseHandler((_, response) =>
      Effect.sync(() => {
        calls++
        return HttpServerResponse.setHeader(response, "x-marked", String(calls))
      })
    )
    const base = await serve(
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.zipRight(mark, request.url === "/fail" ? Effect.fail("no") : text("ok"))
      )
    )
    const ok = await fetch(base)
    expect([ok.status, ok.headers.get("x-marked")]).toEqual([200, "1"])
    const failed = await fetch(`${base}/fail`)
    expect([failed.status, failed.headers.get("x-marked")]).toEqual([500, "2"])
  })

  test("a failure is the platform's response for it: no route is 404, a defect 500 with nothing of it", async () => {
    const base = await serve(
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        request.url === "/die"
          ? Effect.die(new Error("secret detail"))
          : Effect.fail(new HttpServerError.RouteNotFound({ request }))
      )
    )
    expect((await fetch(`${base}/nowhere`)).status).toBe(404)
    const died = await fetch(`${base}/die`)
    expect(died.status).toBe(500)
    expect(await died.text()).not.toContain("secret")
  })

  test("HEAD is answered without a body", async () => {
    const base = await serve(text("a body"))
    const head = await fetch(base, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
  })
})

describe("interruption", () => {
  test("a client that goes away interrupts its request, whose scope is then closed", async () => {
    const closed = Effect.runSync(Deferred.make<void>())
    const base = await serve(
      Effect.zipRight(
        Effect.addFinalizer(() => Deferred.succeed(closed, undefined)),
        Effect.interruptible(Effect.never)
      )
    )
    const abort = new AbortController()
    const pending = fetch(base, { signal: abort.signal }).catch(() => "aborted")
    await Bun.sleep(50)
    abort.abort()
    expect(await pending).toBe("aborted")
    expect(Exit.isSuccess(await Effect.runPromiseExit(Effect.timeout(Deferred.await(closed), "2 seconds")))).toBe(true)
  })

  test("closing the server answers a request still running, interrupted, with 503", async () => {
    const started = Effect.runSync(Deferred.make<void>())
    const base = await serve(Effect.zipRight(Deferred.succeed(started, undefined), Effect.interruptible(Effect.never)))
    const pending = fetch(base)
    await Effect.runPromise(Deferred.await(started))
    await running!.dispose()
    running = undefined
    expect((await pending).status).toBe(503)
  })
})
