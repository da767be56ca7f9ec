/**
 * The body checks (the `RequestBody` middleware of `Api.ts`), after the key, before the token: JSON media type,
 * within the byte limit, a JSON object no deeper than the API's own bodies need, with only the endpoint's fields. A
 * declared length over the limit is refused unread; a body without one (chunked) is counted as it arrives and
 * refused once past the limit. The verdict and the text go on in the request the steps after this one see
 * (`ReadRequest.ts`): the rate limit takes the token, then answers a refusal; the payload decoding reads the text. Read here, not by the framework's `request.text` under `MaxBodySize`, which bounds the same
 * way but cost 8 µs more a request (a stream reader and an AbortController; bench/README.md).
 */
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpServerRequest } from "effect/http"
import { RequestBody } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { InvalidRequest, PayloadTooLarge } from "../Errors.ts"
import { clip } from "./Clip.ts"
import { fieldsOf } from "./Fields.ts"
import { ReadRequest } from "./ReadRequest.ts"

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

const NOT_JSON: unique symbol = Symbol("not JSON")

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return NOT_JSON
  }
}

/** The first field the endpoint does not take, in the body's order, and the fields it takes. */
const unknownField = (body: object, fields: ReadonlySet<string>): InvalidRequest | undefined => {
  for (const name in body) {
    if (fields.has(name)) continue
    const path = clip(name)
    const takes = [...fields].join(", ")
    return new InvalidRequest({
      message: `${path} is not a field of this endpoint; it takes ${takes}`,
      details: [{ path, message: `is not a field of this endpoint (it takes ${takes})` }]
    })
  }
  return undefined
}

/** The text read, judged: a JSON object in depth bounds with only the endpoint's fields, or the first fault. */
const judge = (text: string, fields: ReadonlySet<string> | undefined): object | InvalidRequest => {
  const body = parse(text)
  if (body === NOT_JSON) return notJson()
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return new InvalidRequest({ message: "The request body must be a JSON object" })
  }
  if (depthOf(text) > MAX_JSON_DEPTH) {
    return new InvalidRequest({ message: `The request body nests more than ${MAX_JSON_DEPTH} levels deep` })
  }
  return (fields === undefined ? undefined : unknownField(body, fields)) ?? body
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

/**
 * The body's text within `maxBytes`, or undefined past it. With a declared length, Bun has bounded the read already:
 * its own `text()`, in a callback without the abort signal (Effect makes an AbortController for one that takes it).
 */
const read = (source: Request, declared: string | undefined, maxBytes: number) =>
  declared !== undefined
    ? Effect.callback<string | undefined, InvalidRequest>((resume) => {
        source.text().then(
          (text) => resume(Effect.succeed(text)),
          () => resume(Effect.fail(unreadable()))
        )
      })
    : Effect.callback<string | undefined, InvalidRequest>((resume, signal) => {
        readWithin(source, maxBytes, signal).then(
          (text) => resume(Effect.succeed(text)),
          () => resume(Effect.fail(unreadable()))
        )
      })

export const RequestBodyLive = Layer.effect(
  RequestBody,
  Effect.gen(function* () {
    const { maxBodyBytes } = yield* AppConfig
    const tooLarge = new PayloadTooLarge({ message: `The request body is over the limit of ${maxBodyBytes} bytes` })
    return RequestBody.of((httpEffect, { endpoint }) =>
      Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
        // the verdict goes to the rate limit, which takes the caller's token first, refused or not
        const judged = (text: string, refused: InvalidRequest | PayloadTooLarge | undefined, parsed?: object) =>
          Effect.provideService(
            httpEffect,
            HttpServerRequest.HttpServerRequest,
            new ReadRequest(request, text, parsed, refused)
          )
        const contentType = request.headers["content-type"]
        if (contentType !== undefined && !isJson(contentType)) {
          // curl -d sends a form type and fetch with a string body text/plain: say what came and what to send instead.
          const received = JSON.stringify(clip(contentType))
          const message = `Content-Type must be application/json, got ${received}; send Content-Type: application/json (curl --json)`
          return judged("", new InvalidRequest({ message }))
        }
        const declared = request.headers["content-length"]
        if (declared !== undefined && Number(declared) > maxBodyBytes) return judged("", tooLarge)
        return Effect.matchEffect(read(request.source as Request, declared, maxBodyBytes), {
          onFailure: (unreadable) => judged("", unreadable),
          onSuccess: (text) => {
            if (text === undefined) return judged("", tooLarge)
            const verdict = judge(text, fieldsOf(endpoint))
            return verdict instanceof InvalidRequest ? judged(text, verdict) : judged(text, undefined, verdict)
          }
        })
      })
    )
  })
)

/**
 * The framework's own limit on any body it reads, from MAX_BODY_BYTES: the API's bodies are read above, within the
 * same limit; this bounds any other read.
 */
export const MaxBodySizeLive = Layer.effect(
  HttpIncomingMessage.MaxBodySize,
  Effect.map(Effect.service(AppConfig), ({ maxBodyBytes }) => ByteSize.bytes(maxBodyBytes))
)
