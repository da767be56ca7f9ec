/**
 * The body checks that follow authentication: JSON media type, within the byte limit (the framework's
 * `MaxBodySize`), a JSON object no deeper than the API's own bodies need.
 */
import { ByteSize, Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { InvalidRequest, PayloadTooLarge } from "../Domain/Errors.ts"
import { clip } from "./Clip.ts"

/**
 * Arrays and objects nested deeper than this are refused (400). The API's bodies are two levels deep; without a
 * limit, a field holding thousands of nested arrays makes schema error messages recurse through all of them.
 */
export const MAX_JSON_DEPTH = 32

/** Whether a parsed JSON value nests arrays/objects more than `max` deep; level by level, so no recursion. */
export const nestedDeeperThan = (value: unknown, max: number): boolean => {
  let level: Array<object> = typeof value === "object" && value !== null ? [value] : []
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > max) return true
    const next: Array<object> = []
    for (const container of level) {
      for (const child of Object.values(container)) if (typeof child === "object" && child !== null) next.push(child)
    }
    level = next
  }
  return false
}

const isJson = (contentType: string): boolean => {
  const semicolon = contentType.indexOf(";")
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === "application/json"
}

const unreadable = () => new InvalidRequest({ message: "The request body could not be read" })

/**
 * The body as text, read by the framework within `MaxBodySize`: a declared length over it is refused unread, a body
 * without one (chunked) is counted as it arrives and refused once past it. The framework caches the text, so the
 * payload decoding that follows reads the same text, and the body is read once.
 */
const readText = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<string, InvalidRequest | PayloadTooLarge> =>
  request.text.pipe(
    Effect.provideService(HttpServerRequest.MaxBodySize, ByteSize.bytes(maxBytes)),
    Effect.mapError((error) =>
      error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
        ? new PayloadTooLarge({ message: `The request body is over the limit of ${maxBytes} bytes` })
        : unreadable()
    )
  )

/** The body, checked: JSON media type, within the size limit, a JSON object in depth bounds. */
export const checkBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<void, InvalidRequest | PayloadTooLarge> => {
  const contentType = request.headers["content-type"]
  if (contentType !== undefined && !isJson(contentType)) {
    // curl -d sends a form type and fetch with a string body text/plain: say what came and what to send instead.
    const received = JSON.stringify(clip(contentType))
    return Effect.fail(
      new InvalidRequest({
        message: `Content-Type must be application/json, got ${received}; send Content-Type: application/json (curl --json)`
      })
    )
  }
  return Effect.flatMap(readText(request, maxBytes), (text) => {
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return Effect.fail(new InvalidRequest({ message: "The request body is not valid JSON" }))
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return Effect.fail(new InvalidRequest({ message: "The request body must be a JSON object" }))
    }
    if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
      return Effect.fail(
        new InvalidRequest({ message: `The request body nests more than ${MAX_JSON_DEPTH} levels deep` })
      )
    }
    return Effect.void
  })
}
