/**
 * Reading a request body within a byte limit, before anything buffers more than the limit. A declared length over
 * it is refused unread; a body without one (chunked) is counted as it arrives and refused once past the limit.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { InvalidRequest, PayloadTooLarge } from "../Domain/Errors.ts"

const unreadable = () => new InvalidRequest({ message: "The request body could not be read" })

/**
 * Arrays and objects nested deeper than this are refused (400). The API's bodies are two levels deep; without a
 * limit, a field holding 5,000 nested arrays crashed the schema's error message (it prints the value recursively).
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

type Primed = { textEffect: Effect.Effect<string> }

/**
 * Hands what was read to the framework: HttpApi reads the payload through `request.json`, a getter that parses
 * `request.text`, which both request implementations of @effect/platform cache in `textEffect`. The middleware
 * has read and parsed the body already, so the framework gets both, and the body is parsed once.
 */
export const primeBody = (request: HttpServerRequest.HttpServerRequest, text: string, json?: unknown): void => {
  ;(request as unknown as Primed).textEffect = Effect.succeed(text)
  if (json !== undefined) Object.defineProperty(request, "json", { value: Effect.succeed(json), configurable: true })
}

export const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<string, InvalidRequest | PayloadTooLarge> => {
  // Built only when needed: a Schema.TaggedError validates its fields and captures a stack, ~5% of a request.
  const tooLarge = () => new PayloadTooLarge({ message: `The request body is over the limit of ${maxBytes} bytes` })
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > maxBytes) return Effect.fail(tooLarge())
  const read = (text: string | undefined): Effect.Effect<string, PayloadTooLarge> => {
    if (text === undefined) return Effect.fail(tooLarge())
    primeBody(request, text)
    return Effect.succeed(text)
  }
  const source = request.source
  // Another platform's request: its own reading (buffered whole), the limit checked after.
  if (!(source instanceof Request)) {
    return Effect.flatMap(Effect.mapError(request.text, unreadable), (text) =>
      read(Buffer.byteLength(text) > maxBytes ? undefined : text)
    )
  }
  // Bun's own Request, read directly, in one asynchronous step: the framework's `text` runs a nested runtime and
  // builds a cache a request, and its `stream` takes some 700 steps of the fiber for a small chunked body.
  if (declared !== undefined) {
    return Effect.async<string, InvalidRequest | PayloadTooLarge>((resume) => {
      source.text().then(
        (text) => resume(read(text)),
        () => resume(Effect.fail(unreadable()))
      )
    })
  }
  return Effect.async<string, InvalidRequest | PayloadTooLarge>((resume, signal) => {
    readWithin(source, maxBytes, signal).then(
      (text) => resume(read(text)),
      () => resume(Effect.fail(unreadable()))
    )
  })
}

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
