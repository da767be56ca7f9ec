/** The application on Bun.serve: what a served request can rely on, from a real socket. */
import { afterEach, describe, expect, test } from "bun:test"
import { Deferred, Effect, Exit, Layer, ManagedRuntime, type Scope } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { AppConfig, type Env, InvalidConfig } from "../../src/Config.ts"
import { PeerAddress } from "../../src/Http/ClientAddress.ts"
import * as BunServer from "../../src/Platform/BunServer.ts"

let running: ManagedRuntime.ManagedRuntime<BunServer.ServerAddress, unknown> | undefined
afterEach(async () => {
  await running?.dispose()
  running = undefined
})

const start = (app: Layer.Layer<never, never, HttpRouter.HttpRouter>, env: Env = {}) =>
  ManagedRuntime.make(
    BunServer.layer(app).pipe(Layer.provide(AppConfig.fromEnv({ PORT: "0", HOST: "127.0.0.1", ...env })))
  )

/** Serves `handler` on GET / and returns the base URL; the server closes after the test. */
const serve = async (
  handler: Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    never,
    Scope.Scope | HttpServerRequest.HttpServerRequest
  >
) => {
  running = start(HttpRouter.add("GET", "/", handler))
  const { port } = await running.runPromise(BunServer.ServerAddress.useSync((address) => address))
  return `http://127.0.0.1:${port}`
}

describe("each request", () => {
  test("has a scope of its own, closed once its response is ready", async () => {
    let closed = 0
    const base = await serve(
      Effect.andThen(
        Effect.addFinalizer(() => Effect.sync(() => closed++)),
        Effect.succeed(HttpServerResponse.text("ok"))
      )
    )
    for (let i = 1; i <= 3; i++) {
      expect(await (await fetch(base)).text()).toBe("ok")
      expect(closed).toBe(i)
    }
  })

  test("carries the socket's peer address", async () => {
    const peerOfRequest = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      PeerAddress.useSync((peer) => HttpServerResponse.text(String(peer(request))))
    )
    const base = await serve(peerOfRequest)
    expect(await (await fetch(base)).text()).toBe("127.0.0.1")
    // looked up when asked, so also once the request has waited (a body read, a limiter in Redis)
    const later = await serve(Effect.andThen(Effect.sleep("20 millis"), peerOfRequest))
    expect(await (await fetch(later)).text()).toBe("127.0.0.1")
  })

  test("HEAD is answered without a body", async () => {
    const base = await serve(Effect.succeed(HttpServerResponse.text("a body")))
    const head = await fetch(base, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
  })

  test("a client that goes away interrupts its request, whose scope is then closed", async () => {
    const handling = Effect.runSync(Deferred.make<void>())
    const closed = Effect.runSync(Deferred.make<void>())
    const base = await serve(
      Effect.andThen(
        Effect.addFinalizer(() => Deferred.succeed(closed, undefined)),
        Effect.andThen(Deferred.succeed(handling, undefined), Effect.never)
      )
    )
    const abort = new AbortController()
    const pending = fetch(base, { signal: abort.signal }).catch(() => "aborted")
    // gone once its request is being handled (a loaded machine may take a while to get there)
    await Effect.runPromise(Deferred.await(handling))
    abort.abort()
    expect(await pending).toBe("aborted")
    expect(Exit.isSuccess(await Effect.runPromiseExit(Effect.timeout(Deferred.await(closed), "2 seconds")))).toBe(true)
  })
})

describe("listening", () => {
  test("PORT=0 listens on a free port, and the server stops with its scope", async () => {
    const base = await serve(Effect.succeed(HttpServerResponse.text("ok")))
    expect((await fetch(base)).status).toBe(200)
    await running!.dispose()
    running = undefined
    expect(
      await fetch(base).then(
        () => "answered",
        () => "refused"
      )
    ).toBe("refused")
  })

  test("a port in use or an address not of this machine is a bad setting naming PORT or HOST", async () => {
    const base = await serve(Effect.succeed(HttpServerResponse.text("ok")))
    const port = new URL(base).port
    const failure = async (env: Env) => {
      const other = start(HttpRouter.add("GET", "/", Effect.succeed(HttpServerResponse.text("ok"))), env)
      const exit = await other.runPromiseExit(BunServer.ServerAddress.useSync((address) => address))
      await other.dispose()
      if (Exit.isSuccess(exit)) throw new Error("started")
      const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
      return error?._tag === "Fail" ? (error.error as InvalidConfig) : undefined
    }
    const inUse = await failure({ PORT: port })
    expect(inUse).toBeInstanceOf(InvalidConfig)
    expect(inUse!.message).toBe(`PORT ${port} is already in use on 127.0.0.1`)
    const elsewhere = await failure({ HOST: "192.0.2.1" })
    expect(elsewhere!.message).toStartWith("HOST must be an address of this machine")
  })
})
