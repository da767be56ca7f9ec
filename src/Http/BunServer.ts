/**
 * Bun's HTTP server as an @effect/platform `HttpServer`, doing for each request what `@effect/platform-bun`'s does
 * in fewer steps of the fiber's run loop: 145 against 201 for a wage request, 14-18% less CPU a request
 * (`bun bench/adapter.ts` measures both side by side in one process).
 *
 * A request runs as one fiber holding the request and a scope of its own, closed when the fiber ends. The fiber is
 * uninterruptible except where the router lets the route's handler be interrupted, so an interrupted request is
 * still answered: by a client that went away (499, sent nowhere) or by the server closing (503). The app's
 * failures become the platform's responses for them; the pre-response handlers registered while it ran see the
 * final response, once. Closing the server interrupts the requests still running and waits for their answers.
 *
 * The platform's server wraps each request in a tracer middleware, a FiberSet registration, a scope made and closed
 * through more combinators, an uninterruptible region and three layers of error handling, and writes the response
 * from inside the fiber; here the fiber starts uninterruptible and returns its response.
 *
 * What it leaves out: the HTTP tracer span (nothing exports spans) and WebSocket upgrades (no route uses them).
 */
import * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as BunHttpServer from "@effect/platform-bun/BunHttpServer"
import { type Cause, Context, Effect, Exit, Fiber, FiberRef, Layer, Runtime, RuntimeFlags, Scope } from "effect"

export interface BunServerOptions {
  readonly port: number
  readonly hostname: string
  readonly reusePort: boolean
  readonly maxRequestBodySize: number
  readonly idleTimeout: number
}

type Response_ = HttpServerResponse.HttpServerResponse

const notFound = (_: Request): Response | Promise<Response> => new Response("not found", { status: 404 })

/** A failure or an interruption as the platform answers it: 404 for no route, 499, 503, otherwise 500. */
const failed = (cause: Cause.Cause<unknown>) =>
  Effect.map(HttpServerError.causeResponse(cause), ([response]) => response)

/** The response after the pre-response handlers registered while the app ran. */
const withPreResponseHandlers = (response: Response_) =>
  Effect.withFiberRuntime<Response_, HttpServerError.ResponseError>((fiber) => {
    const handlers = fiber.getFiberRef(HttpApp.currentPreResponseHandlers)
    if (handlers._tag === "None") return Effect.succeed(response)
    return handlers.value(Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest), response)
  })

/** The app answering every request with a response: its failures mapped, then the pre-response handlers. */
const answering = (
  app: HttpApp.Default<unknown>,
  middleware: HttpMiddleware.HttpMiddleware | undefined
): HttpApp.Default<never, Scope.Scope> => {
  const answered = Effect.flatMap(Effect.catchAllCause(app, failed), withPreResponseHandlers)
  return Effect.catchAllCause(middleware === undefined ? answered : middleware(answered), failed)
}

export const make = (options: BunServerOptions) =>
  Effect.gen(function* () {
    let fetch = notFound
    const server = Bun.serve({ ...options, fetch: (request) => fetch(request) })
    yield* Effect.addFinalizer(() => Effect.sync(() => server.stop()))

    return HttpServer.make({
      address: { _tag: "TcpAddress", port: server.port ?? options.port, hostname: server.hostname ?? options.hostname },
      serve: (app, middleware) =>
        Effect.gen(function* () {
          const runtime = yield* Effect.runtime<never>()
          // Fibers start uninterruptible, rather than being wrapped in Effect.uninterruptible: leaving that wrapper
          // at the end would let a pending interruption replace the fiber's answer with its interruption.
          const runtimeFlags = RuntimeFlags.disable(runtime.runtimeFlags, RuntimeFlags.Interruption)
          /** A request's fiber starts with the request in its context: no step of its own to provide it. */
          const run = (request: HttpServerRequest.HttpServerRequest) =>
            Runtime.runFork(
              Runtime.make({
                context: Context.add(runtime.context, HttpServerRequest.HttpServerRequest, request),
                fiberRefs: runtime.fiberRefs,
                runtimeFlags
              })
            )(serveOne)
          const app_ = answering(app, middleware)
          const running = new Set<Fiber.RuntimeFiber<Response_>>()

          /**
           * A request's own scope, closed when it ends. Set in the fiber's context rather than provided around the
           * app: the fiber is the request's alone, so nothing needs the context back afterwards, and providing
           * (save, set, restore, uninterruptibly) takes ten steps of the fiber.
           */
          const serveOne: Effect.Effect<Response_> = Effect.flatMap(Scope.make(), (scope) =>
            Effect.zipRight(
              FiberRef.update(FiberRef.currentContext, Context.add(Scope.Scope, scope)),
              Effect.onExit(app_, (exit) => Scope.close(scope, exit))
            )
          ) as Effect.Effect<Response_>

          const handler = (source: Request): Promise<Response> =>
            new Promise((resolve) => {
              const address = server.requestIP(source)?.address
              const request = HttpServerRequest.fromWeb(source)
              const fiber = run(address === undefined ? request : request.modify({ remoteAddress: address }))
              running.add(fiber)
              fiber.addObserver((exit) => {
                running.delete(fiber)
                // `answering` turns every failure into a response: a failed exit would be a bug in this file.
                resolve(
                  Exit.isSuccess(exit)
                    ? HttpServerResponse.toWeb(exit.value, { withoutBody: source.method === "HEAD", runtime })
                    : new Response(null, { status: 500 })
                )
              })
              source.signal.addEventListener(
                "abort",
                () => fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId),
                { once: true }
              )
            })

          yield* Effect.acquireRelease(
            Effect.sync(() => {
              fetch = handler
            }),
            () =>
              Effect.suspend(() => {
                fetch = notFound
                return Fiber.interruptAll(running)
              })
          )
        })
    })
  })

/** The server and the platform services an app expects beside it (file system, paths, ETags), as Bun's layer has. */
export const layer = (options: BunServerOptions) =>
  Layer.mergeAll(Layer.scoped(HttpServer.HttpServer, make(options)), BunHttpServer.layerContext)
