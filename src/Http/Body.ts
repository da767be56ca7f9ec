/**
 * The body checks that follow authentication: JSON media type, within the byte limit, a JSON object no deeper
 * than the API's own bodies need. A declared length over the limit is refused unread; a body without one (chunked)
 * is counted as it arrives and refused once past the limit.
 */
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { InvalidRequest, PayloadTooLarge } from "../Errors.ts"
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

/** The body as text, or undefined once it is over `maxBytes`: counted as it arrives, never buffered past it. */
const readWithin = async (source: Request, maxBytes: number, signal: AbortSignal): Promise<string | undefined> => {
  if (source.body === null) return ""
  const reader = source.body.getReader()
  const stop = () => void reader.cancel().catch(() => {})
  signal.addEventListener("abort", stop, { once: true })
  try {
    const chunks: Array<Uint8Array> = []
    let size = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return Buffer.concat(chunks, size).toString("utf8")
      size += value.byteLength
      if (size > maxBytes) {
        stop()
        return undefined
      }
      chunks.push(value)
    }
  } finally {
    signal.removeEventListener("abort", stop)
  }
}

/** A body that is not JSON: refused here, or by the framework's parse after these checks (SchemaErrors.ts). */
export const notJson = () => new InvalidRequest({ message: "The request body is not valid JSON" })

const isJsonText = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The text read, checked: a JSON object in depth bounds, handed to the framework's payload decoding, which parses
 * it (text that starts as an object but is not JSON fails there: RequestErrors says it is not JSON). Only a refused
 * body is parsed here, to say which of its faults comes first.
 */
const checkText = (request: HttpServerRequest.HttpServerRequest, text: string): Effect.Effect<void, InvalidRequest> => {
  if (text.trimStart()[0] !== "{") {
    if (!isJsonText(text)) return Effect.fail(notJson())
    return Effect.fail(new InvalidRequest({ message: "The request body must be a JSON object" }))
  }
  if (depthOf(text) > MAX_JSON_DEPTH) {
    if (!isJsonText(text)) return Effect.fail(notJson())
    return Effect.fail(
      new InvalidRequest({ message: `The request body nests more than ${MAX_JSON_DEPTH} levels deep` })
    )
  }
  prime(request, text)
  return Effect.void
}

/**
 * Hands the text read here to the framework, which reads the payload through `request.text` (cached in the
 * request's `textEffect`): the body is read once, and only after the checks above.
 */
const prime = (request: HttpServerRequest.HttpServerRequest, text: string): void => {
  ;(request as unknown as { textEffect: Effect.Effect<string> }).textEffect = Effect.succeed(text)
}

/** The body, checked: JSON media type, within the size limit, a JSON object in depth bounds; one wait, for the read. */
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
  const tooLarge = () => new PayloadTooLarge({ message: `The request body is over the limit of ${maxBytes} bytes` })
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > maxBytes) return Effect.fail(tooLarge())
  const source = request.source as Request
  const checked = (text: string | undefined) =>
    text === undefined ? Effect.fail(tooLarge()) : checkText(request, text)
  const failed = () => Effect.fail(unreadable())
  // With a declared length Bun has already bounded the read: a callback without the signal (Effect makes an
  // AbortController for one that takes it). Without one, count as it arrives, and stop on the signal.
  if (declared !== undefined) {
    return Effect.callback<void, InvalidRequest | PayloadTooLarge>((resume) => {
      source.text().then(
        (text) => resume(checked(text)),
        () => resume(failed())
      )
    })
  }
  return Effect.callback<void, InvalidRequest | PayloadTooLarge>((resume, signal) => {
    readWithin(source, maxBytes, signal).then(
      (text) => resume(checked(text)),
      () => resume(failed())
    )
  })
}
