/**
 * The body checks (the `RequestBody` middleware of `Api.ts`), after the key and the token: JSON media type, within
 * the byte limit, a JSON object no deeper than the API's own bodies need. The framework reads the body, bounded by
 * `HttpIncomingMessage.MaxBodySize`: a declared length over it is refused unread, a body without one (chunked) is
 * counted as it arrives and refused once past it.
 */
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, type HttpServerError, HttpServerRequest } from "effect/http"
import { RequestBody } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { InvalidRequest, PayloadTooLarge } from "../Errors.ts"
import { TracedSteps } from "../Observability/Tracing.ts"
import { clip } from "./Clip.ts"

/**
 * Arrays and objects nested deeper than this are refused (400). The API's bodies are two levels deep; without a
 * limit, a field holding thousands of nested arrays makes schema error messages recurse through all of them.
 */
export const MAX_JSON_DEPTH = 32

/**
 * How deep arrays and objects nest in JSON text, without parsing it: brackets counted outside strings, so it is
 * exact for valid JSON (the framework parses the text once, after these checks); any depth for text that is not JSON.
 */
export const depthOf = (text: string): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      // a backslash escapes the character after it
      if (c === 92) i++
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth)
    else if (c === 125 || c === 93) depth--
  }
  return deepest
}

const isJson = (contentType: string): boolean => {
  const semicolon = contentType.indexOf(";")
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === "application/json"
}

const unreadable = () => new InvalidRequest({ message: "The request body could not be read" })

/** A body that is not JSON. */
const notJson = () => new InvalidRequest({ message: "The request body is not valid JSON" })

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The text read, checked: a JSON object in depth bounds, or the first of its faults. The framework's payload decoding
 * parses the same text again (it reads the request's body once and keeps it), so what reaches it is always JSON.
 */
const checkText = (text: string): InvalidRequest | undefined => {
  if (!parses(text)) return notJson()
  if (text.trimStart()[0] !== "{") return new InvalidRequest({ message: "The request body must be a JSON object" })
  if (depthOf(text) > MAX_JSON_DEPTH) {
    return new InvalidRequest({ message: `The request body nests more than ${MAX_JSON_DEPTH} levels deep` })
  }
  return undefined
}

/** Whether the framework's read stopped at the size limit (`HttpIncomingMessage.MaxBodySize`). */
const isTooLarge = (error: HttpServerError.HttpServerError): boolean =>
  error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"

export const RequestBodyLive = Layer.effect(
  RequestBody,
  Effect.gen(function* () {
    const { maxBodyBytes } = yield* AppConfig
    const traced = yield* TracedSteps
    const tooLarge = new PayloadTooLarge({ message: `The request body is over the limit of ${maxBodyBytes} bytes` })
    return RequestBody.of((httpEffect, { endpoint }) =>
      Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
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
        const tool = traced.span(`tool ${endpoint.identifier}`, httpEffect)
        return Effect.matchEffect(request.text, {
          onFailure: (error) => Effect.fail(isTooLarge(error) ? tooLarge : unreadable()),
          onSuccess: (text): Effect.Effect<Effect.Success<typeof tool>, Effect.Error<typeof tool> | InvalidRequest> => {
            const refused = checkText(text)
            return refused === undefined ? tool : Effect.fail(refused)
          }
        })
      })
    )
  })
)

/** The framework's limit on a body read, from MAX_BODY_BYTES: past it the read stops (413 above). */
export const MaxBodySizeLive = Layer.effect(
  HttpIncomingMessage.MaxBodySize,
  Effect.map(Effect.service(AppConfig), ({ maxBodyBytes }) => ByteSize.bytes(maxBodyBytes))
)
