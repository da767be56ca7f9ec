// The body checks, their verdict passed on as `Body`: the rate limit takes the token first, then answers a refusal.
import { ByteSize, Context, Effect, Layer, SchemaAST } from "effect"
import { HttpIncomingMessage, HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { Body, RequestBody } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { InvalidRequest, PayloadTooLarge } from "../Errors.ts"
import { clip } from "./Clip.ts"

/** Without a limit, thousands of nested arrays make a schema error's message recurse through all of them. */
export const MAX_JSON_DEPTH = 32

/** Brackets counted outside strings: exact for valid JSON, which is all it is asked about. */
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

// A JSON payload's fields: every property any member of its encoded schema names; undefined where it takes any.
const collect = (ast: SchemaAST.AST, into: Set<string>): boolean => {
  switch (ast._tag) {
    case "Objects":
      if (ast.indexSignatures.length > 0) return false
      for (const property of ast.propertySignatures) into.add(String(property.name))
      return true
    case "Union":
      return ast.types.every((member) => collect(member, into))
    case "Suspend":
      return collect(ast.thunk(), into)
    default:
      return false
  }
}

const cache = new WeakMap<HttpApiEndpoint.Top, ReadonlySet<string> | undefined>()

const fieldsOf = (endpoint: HttpApiEndpoint.Top): ReadonlySet<string> | undefined => {
  if (!cache.has(endpoint)) {
    const fields = new Set<string>()
    const json = endpoint.payload.get("application/json")
    const known = json !== undefined && json.schemas.every((schema) => collect(SchemaAST.toEncoded(schema.ast), fields))
    cache.set(endpoint, known ? fields : undefined)
  }
  return cache.get(endpoint)
}

const isJson = (contentType: string): boolean => {
  const semicolon = contentType.indexOf(";")
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === "application/json"
}

const refuse = (message: string): Body["Service"] => ({ refused: new InvalidRequest({ message }) })

const judge = (text: string, fields: ReadonlySet<string> | undefined): Body["Service"] => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return refuse("The request body is not valid JSON")
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return refuse("The request body must be a JSON object")
  }
  if (depthOf(text) > MAX_JSON_DEPTH) return refuse(`The request body nests more than ${MAX_JSON_DEPTH} levels deep`)
  const unknown = fields && Object.keys(json).find((name) => !fields.has(name))
  if (fields === undefined || unknown === undefined) return { text, json }
  const path = clip(unknown)
  const takes = [...fields].join(", ")
  return {
    refused: new InvalidRequest({
      message: `${path} is not a field of this endpoint; it takes ${takes}`,
      details: [{ path, message: `is not a field of this endpoint (it takes ${takes})` }]
    })
  }
}

export const RequestBodyLive = Layer.effect(
  RequestBody,
  Effect.gen(function* () {
    const { maxBodyBytes } = yield* AppConfig
    const limit = ByteSize.bytes(maxBodyBytes)
    const tooLarge = {
      refused: new PayloadTooLarge({ message: `The request body is over the limit of ${maxBodyBytes} bytes` })
    }
    const unreadable = refuse("The request body could not be read")
    return RequestBody.of((httpEffect, { endpoint }) =>
      Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const request = Context.get(context, HttpServerRequest.HttpServerRequest)
        const judged = (body: Body["Service"]) => Effect.provideService(httpEffect, Body, body)
        const contentType = request.headers["content-type"]
        if (contentType !== undefined && !isJson(contentType)) {
          // curl -d sends a form type and fetch with a string body text/plain: say what came and what to send instead.
          const received = JSON.stringify(clip(contentType))
          const message = `Content-Type must be application/json, got ${received}; send Content-Type: application/json (curl --json)`
          return judged(refuse(message))
        }
        // A declared length is Bun's to hold the body to: over the limit it is refused unread, within it read as it
        // is; a body without one (chunked) is counted as it arrives, under the framework's limit.
        const declared = request.headers["content-length"]
        const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined
        if (length !== undefined && length > maxBodyBytes) return judged(tooLarge)
        const text =
          length !== undefined
            ? request.text
            : Effect.provideService(request.text, HttpIncomingMessage.MaxBodySize, limit)
        return Effect.matchEffect(text, {
          onFailure: (error) =>
            judged(
              error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
                ? tooLarge
                : unreadable
            ),
          onSuccess: (text) => judged(judge(text, fieldsOf(endpoint)))
        })
      })
    )
  })
)
