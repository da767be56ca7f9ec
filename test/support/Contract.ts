/**
 * What every answer of the service must look like, whatever was sent: a status the contract names (never a 5xx
 * here), the headers every response carries, and a body that is either the one error envelope with the code that
 * belongs to its status, or the success shape of the route that was reached.
 */
import { Exit, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import { ToolsApi } from "../../src/Api.ts"
import { DOCS_PATH, makeRoutes, OPENAPI_PATH } from "../../src/Http/Routes.ts"

export const CODES: Readonly<Record<number, string>> = {
  400: "invalid_request",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  422: "invalid_value",
  429: "rate_limited",
  503: "service_unavailable"
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: string
}

const strict = { onExcessProperty: "error" } as const

/** Each endpoint's path to whether a body is exactly its success shape, derived from the API. */
const successes = new Map<string, (body: unknown) => boolean>()
HttpApi.reflect(ToolsApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    const schemas = [...endpoint.success]
    successes.set(endpoint.path, (body) =>
      schemas.some((schema) =>
        Exit.isSuccess(Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>)(body, strict))
      )
    )
  }
})

const isEnvelope = (body: any, code: string): boolean => {
  if (typeof body !== "object" || body === null || Object.keys(body).sort().join() !== "error,success") return false
  const error = body.error
  if (body.success !== false || typeof error !== "object" || error === null) return false
  const keys = Object.keys(error)
  // a 429 says when to come back, in whole seconds, as its Retry-After does; no other error has that field
  const allowed =
    code === "rate_limited" ? ["code", "message", "details", "retryAfterSeconds"] : ["code", "message", "details"]
  if (!keys.every((key) => allowed.includes(key))) return false
  if (code === "rate_limited" && !(Number.isInteger(error.retryAfterSeconds) && error.retryAfterSeconds >= 1)) {
    return false
  }
  if (error.code !== code || typeof error.message !== "string" || error.message.length === 0) return false
  if (error.details === undefined) return true
  return (
    Array.isArray(error.details) &&
    error.details.every(
      (detail: any) =>
        typeof detail === "object" &&
        detail !== null &&
        Object.keys(detail).sort().join() === "message,path" &&
        typeof detail.path === "string" &&
        typeof detail.message === "string"
    )
  )
}

/** The known route a request target reaches, as URL parsing and then the router see it. */
const { routeOf } = makeRoutes(ToolsApi)
const routeFor = (target: string): string | undefined => routeOf(new URL(`http://localhost${target}`).pathname)

/** The success shape of the route the request reached: an endpoint's, or the OpenAPI document. */
const isSuccess = (target: string, body: unknown): boolean => {
  const path = routeFor(target)
  if (path === OPENAPI_PATH) return typeof (body as any)?.openapi === "string"
  return path !== undefined && successes.get(path)?.(body) === true
}

export interface Sent {
  readonly method: string
  readonly path: string
  /** The server is shutting down: its 503 is expected. */
  readonly draining?: boolean
}

/** The problem with an answer, or undefined when the contract allows it. */
export const problemWith = (answer: Answer, request: Sent) => {
  const { body, headers, status } = answer
  const describe = `${request.method} ${request.path.slice(0, 80)} -> ${status} ${body.slice(0, 300)}`
  if (status >= 500 && !(status === 503 && request.draining === true)) return `a ${status}: ${describe}`
  if (headers.get("x-content-type-options") !== "nosniff") return `no nosniff: ${describe}`
  // the docs page and the OpenAPI document may be cached for an hour (the document only privately when it names the
  // request's Host, and then it varies by Host); every other answer, errors included, is no-store
  const cached = [DOCS_PATH, OPENAPI_PATH].includes(routeFor(request.path) ?? "")
  const docs = cached && (status === 200 || status === 304)
  const perHost = routeFor(request.path) === OPENAPI_PATH && /(^|,)\s*Host\s*(,|$)/i.test(headers.get("vary") ?? "")
  const scope = perHost ? "private" : "public"
  if (headers.get("cache-control") !== (docs ? `${scope}, max-age=3600` : "no-store")) {
    return `wrong Cache-Control (${headers.get("cache-control")}): ${describe}`
  }
  if (!/^[\x21-\x7e]{1,128}$/.test(headers.get("x-request-id") ?? "")) return `no request id: ${describe}`
  if (request.method === "HEAD") return body === "" ? undefined : `a HEAD with a body: ${describe}`
  const type = headers.get("content-type") ?? ""
  const route = routeFor(request.path)
  if (status === 200 && (route === "/" || route === "/docs" || route === "/metrics")) return undefined
  if (!type.startsWith("application/json")) return `not JSON (${type}): ${describe}`
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return `a body that is not JSON: ${describe}`
  }
  if (status === 200) return isSuccess(request.path, parsed) ? undefined : `not the route's success shape: ${describe}`
  const code = CODES[status]
  if (code === undefined) return `a status the contract does not name: ${describe}`
  if (!isEnvelope(parsed, code)) return `not the error envelope with ${code}: ${describe}`
  if (status === 405 && headers.get("allow") === null) return `a 405 without Allow: ${describe}`
  if (status === 429 && String((parsed as any).error.retryAfterSeconds) !== headers.get("retry-after")) {
    return `a 429 whose retryAfterSeconds is not its Retry-After: ${describe}`
  }
  return undefined
}

/** Reads a fetch Response and throws with the problem, if there is one; returns the answer for further checks. */
export const expectWithinContract = async (response: Response, request: Sent): Promise<Answer> => {
  const answer = { status: response.status, headers: response.headers, body: await response.text() }
  const problem = problemWith(answer, request)
  if (problem !== undefined) throw new Error(problem)
  return answer
}
