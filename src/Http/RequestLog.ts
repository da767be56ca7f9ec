// The request's one log line, from the facts the edge provides for that request (`CurrentRequest`). Not
// HttpMiddleware.logger: its line has no request id, no caller and no clipped path, which operators search by.
import { Cause, Clock, Console, Context, Effect, LogLevel, Option, References } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { jsonLogger, plainJsonLine } from "../Observability/Logger.ts"
import { clip } from "./Clip.ts"

/** One request as the edge answers it: its id and start, its caller once authentication knows it, headers for its answer. */
export class CurrentRequest extends Context.Service<
  CurrentRequest,
  {
    readonly id: string
    readonly startedAt: number
    /** Authentication names the caller here, so the line says who asked without the key being looked up again. */
    readonly noteCaller: (keyId: string) => void
    readonly caller: () => string | undefined
    /** The steps before the answer add their headers here; the edge writes them, with its own, once. */
    readonly addHeaders: (headers: Readonly<Record<string, string>>) => void
    readonly headers: () => Readonly<Record<string, string>>
  }
>()("app/CurrentRequest") {}

/** A request's facts as the edge makes them on its arrival: one object, its methods shared by every request. */
class RequestFacts implements Context.Service.Shape<typeof CurrentRequest> {
  private keyId: string | undefined = undefined
  private readonly added: Record<string, string> = {}

  constructor(
    readonly id: string,
    readonly startedAt: number
  ) {}

  noteCaller(keyId: string): void {
    this.keyId = keyId
  }

  caller(): string | undefined {
    return this.keyId
  }

  addHeaders(headers: Readonly<Record<string, string>>): void {
    Object.assign(this.added, headers)
  }

  headers(): Readonly<Record<string, string>> {
    return this.added
  }
}

export const makeCurrentRequest = (id: string, startedAt: number): CurrentRequest["Service"] =>
  new RequestFacts(id, startedAt)

/**
 * Adds `headers` to this request's answer, whatever it turns out to be (an error is encoded after the step that adds
 * them). The edge writes them with its own, once: each copy of the answer's headers costs ~2 µs (bench/ab.ts).
 * Served without the edge (a middleware on its own), the framework's pre-response handler adds them.
 */
export const respondWith = (
  headers: Readonly<Record<string, string>>
): Effect.Effect<void, never, HttpServerRequest.HttpServerRequest> =>
  Effect.contextWith((context: Context.Context<never>) => {
    const facts = Context.getOption(context, CurrentRequest)
    if (Option.isSome(facts)) return Effect.sync(() => facts.value.addHeaders(headers))
    return HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeaders(response, headers))
    )
  })

export const logRequest = (
  request: HttpServerRequest.HttpServerRequest,
  facts: CurrentRequest["Service"],
  path: string,
  status: number,
  durationMs: number
): Effect.Effect<void> => {
  const fields: Record<string, string | number> = {
    method: request.method,
    path: clip(path),
    status,
    durationMs: Math.round(durationMs * 100) / 100,
    requestId: facts.id
  }
  const keyId = facts.caller()
  if (keyId !== undefined) fields.keyId = keyId
  // a probe every few seconds would drown the requests: a healthy answer to one is at debug, a 503 at info
  const probe = (request.method === "GET" || request.method === "HEAD") && path === "/health" && status === 200
  return logLine(probe ? "Debug" : "Info", "request", fields)
}

/**
 * `Effect.logWithLevel(level)(message)` annotated with `fields`. With the JSON logger alone, as deployed, the line is
 * written at once: annotating the fiber's logs for one line cost ~2 µs of a ~55 µs request in process (bench/ab.ts).
 */
const logLine = (level: LogLevel.Severity, message: string, fields: Readonly<Record<string, string | number>>) =>
  Effect.withFiber((fiber) => {
    if (LogLevel.isGreaterThan(fiber.getRef(References.MinimumLogLevel), level)) return Effect.void
    const loggers = fiber.getRef(References.CurrentLoggers)
    const outer = fiber.getRef(References.CurrentLogAnnotations)
    const annotations = Object.keys(outer).length === 0 ? fields : { ...outer, ...fields }
    const date = new Date(fiber.getRef(Clock.Clock).currentTimeMillisUnsafe())
    const line =
      loggers.size === 1 && loggers.has(jsonLogger)
        ? plainJsonLine({ message, logLevel: level, cause: Cause.empty, fiber, date }, annotations)
        : undefined
    if (line === undefined) return Effect.annotateLogs(Effect.logWithLevel(level)(message), fields)
    fiber.getRef(Console.Console).log(line)
    return Effect.void
  })
