/**
 * API-level middleware: turns what the framework raises into the contract's errors before they are encoded.
 * Unknown route: 404, or 405 with `Allow` when the path exists; a payload that does not match its schema: 400,
 * or 422 for a wage value that is present but wrong; a defect: logged with its cause, answered 500 with nothing
 * of it in the body.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Cause, Effect, Option } from "effect"
import { ToolsApi } from "../Api.ts"
import { Detail, InternalError, InvalidRequest, InvalidValue, MethodNotAllowed, NotFound } from "../Domain/Errors.ts"
import { valueFields } from "../Domain/Wage.ts"
import { pathOf, requestIdOf } from "./Edge.ts"
import { knownRoutes, routeOf } from "./Routes.ts"

const routeNotFound = (method: string, url: string): Effect.Effect<never, NotFound | MethodNotAllowed> => {
  const path = pathOf(url)
  const route = routeOf(path)
  const methods = route === undefined ? undefined : knownRoutes.get(route)
  if (methods === undefined || methods.includes(method)) {
    return Effect.fail(new NotFound({ message: `No route for ${path}` }))
  }
  const allow = methods.join(", ")
  return HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "allow", allow))
  ).pipe(
    Effect.zipRight(Effect.fail(new MethodNotAllowed({ message: `${method} is not allowed on ${path}; use ${allow}` })))
  )
}

const EXPECTED = /^Expected (.+), actual (.+)$/s

/**
 * The first failing field's issues as one fragment. A union of literals fails once per member ("Expected
 * "Chrome", actual "Opera"", ...): those become one "must be one of …, got …".
 */
const describeField = (issues: HttpApiError.HttpApiDecodeError["issues"], path: string): string => {
  const first = issues[0]!
  const matches = issues
    .filter((issue) => issue.path.map(String).join(".") === path)
    .map((issue) => EXPECTED.exec(issue.message))
  if (matches.some((match) => match === null)) return first.message
  const expected = [...new Set(matches.flatMap((match) => match![1]!.split(" | ")))].filter((v) => v !== "undefined")
  const allowed = expected.length === 1 ? expected[0] : `one of ${expected.join(", ")}`
  return `must be ${allowed}, got ${clip(matches[0]![2]!)}`
}

/** The value a client sent is echoed at most this long (in code points), so an error never outgrows its request. */
const MAX_ECHO = 64

const clip = (value: string): string => {
  if (value.length <= MAX_ECHO) return value
  const points = [...value]
  return points.length <= MAX_ECHO ? value : `${points.slice(0, MAX_ECHO).join("")}…`
}

/** The first issue decides the status; its path names the field. */
export const fromDecodeError = (error: HttpApiError.HttpApiDecodeError): InvalidRequest | InvalidValue => {
  const issue = error.issues[0]
  if (issue === undefined) return new InvalidRequest({ message: "The request body does not match the schema" })
  const path = issue.path.map(String).join(".")
  if (path === "") return new InvalidRequest({ message: issue.message })
  const message = describeField(error.issues, path)
  const fields = { message: `${path} ${message}`, details: [new Detail({ path, message })] }
  const first = String(issue.path[0])
  return valueFields.has(first) && issue._tag !== "Missing" ? new InvalidValue(fields) : new InvalidRequest(fields)
}

const internal = new InternalError({
  message: "Something went wrong on our side; the request id identifies it in our logs"
})

type Mapped = Effect.Effect<
  never,
  InvalidRequest | NotFound | MethodNotAllowed | InternalError,
  HttpServerRequest.HttpServerRequest
>

export const ErrorMappingLive = HttpApiBuilder.middleware(ToolsApi, (app) =>
  Effect.catchAllCause(app, (cause): Mapped => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      const error: unknown = failure.value
      if (error instanceof HttpApiError.HttpApiDecodeError) {
        // InvalidValue is declared on the wage endpoint only, the one place it can arise; the encoder finds it there.
        return Effect.fail(fromDecodeError(error) as InvalidRequest)
      }
      if (typeof error === "object" && error !== null && "_tag" in error && error._tag === "RouteNotFound") {
        return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          routeNotFound(request.method, request.url)
        )
      }
      return Effect.failCause(cause)
    }
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
    // the one log line besides the request's own that must name the request: the id ties it to the 500 answered
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.zipRight(
        Effect.logError("Unhandled defect", cause).pipe(Effect.annotateLogs("requestId", requestIdOf(request) ?? "")),
        Effect.fail(internal)
      )
    )
  })
)
