/**
 * Reading a request body within a byte limit, before anything buffers more than the limit. A declared length over
 * it is refused unread; a body without one (chunked) is counted as it arrives and refused once past the limit.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Chunk, Effect, Stream } from "effect"
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
  if (declared !== undefined) {
    if (Number(declared) > maxBytes) return Effect.fail(tooLarge())
    // Bun's (or a test's) own Request, read directly: the framework's `text` runs a nested runtime and builds a
    // cache per request for it.
    const source = request.source
    if (!(source instanceof Request)) return Effect.mapError(request.text, unreadable)
    // One asynchronous step rather than tryPromise and a tap: this runs on every request.
    return Effect.async<string, InvalidRequest>((resume) => {
      source.text().then(
        (text) => {
          primeBody(request, text)
          resume(Effect.succeed(text))
        },
        () => resume(Effect.fail(unreadable()))
      )
    })
  }
  return request.stream.pipe(
    Stream.runFoldWhile(
      { chunks: Chunk.empty<Uint8Array>(), size: 0 },
      (read) => read.size <= maxBytes,
      (read, chunk) => ({ chunks: Chunk.append(read.chunks, chunk), size: read.size + chunk.byteLength })
    ),
    Effect.mapError(unreadable),
    Effect.flatMap(({ chunks, size }) => {
      if (size > maxBytes) return Effect.fail(tooLarge())
      const text = Buffer.concat(Chunk.toReadonlyArray(chunks)).toString("utf8")
      primeBody(request, text)
      return Effect.succeed(text)
    })
  )
}
