// The body's own checks, each failing for itself: a JSON Content-Type, and a size within MAX_BODY_BYTES. The text is
// read here, under the limit; the framework's read for the endpoint's schema then takes the same text.
import { ByteSize, Context, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpServerRequest } from "effect/http"
import { RequestBody } from "../Api.ts"
import { AppConfig } from "../Config.ts"
import { InvalidRequest, PayloadTooLarge } from "../Errors.ts"
import { clip } from "./Clip.ts"
import { ReadRequest } from "./ReadRequest.ts"

const isJson = (contentType: string): boolean => {
  const semicolon = contentType.indexOf(";")
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === "application/json"
}

/** curl -d sends a form type and fetch with a string body text/plain: say what came and what to send instead. */
const notJson = (contentType: string) =>
  new InvalidRequest({
    message: `Content-Type must be application/json, got ${JSON.stringify(clip(contentType))}; send Content-Type: application/json (curl --json)`
  })

export const RequestBodyLive = Layer.effect(
  RequestBody,
  Effect.gen(function* () {
    const { maxBodyBytes } = yield* AppConfig
    const limit = ByteSize.bytes(maxBodyBytes)
    const tooLarge = new PayloadTooLarge({ message: `The request body is over the limit of ${maxBodyBytes} bytes` })
    const unreadable = new InvalidRequest({ message: "The request body could not be read" })

    return RequestBody.of((httpEffect) =>
      Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const request = Context.get(context, HttpServerRequest.HttpServerRequest)
        const contentType = request.headers["content-type"]
        if (contentType !== undefined && !isJson(contentType)) return Effect.fail(notJson(contentType))
        // A declared length is Bun's to hold the body to: over the limit it is refused unread, within it read as it
        // is; a body without one (chunked) is counted as it arrives, under the framework's limit.
        const declared = request.headers["content-length"]
        const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined
        if (length !== undefined && length > maxBodyBytes) return Effect.fail(tooLarge)
        // Bun's own read of a body whose length it knows: no signal, as the framework's read sets up for any body
        if (length !== undefined && request.source instanceof Request) {
          const source = request.source
          return Effect.flatMap(
            Effect.callback<string, InvalidRequest>((resume) => {
              source.text().then(
                (text) => resume(Effect.succeed(text)),
                () => resume(Effect.fail(unreadable))
              )
            }),
            (text) =>
              Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, new ReadRequest(request, text))
          )
        }
        const text = Effect.provideService(request.text, HttpIncomingMessage.MaxBodySize, limit)
        return Effect.matchEffect(text, {
          onFailure: (error) =>
            Effect.fail(
              error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
                ? tooLarge
                : unreadable
            ),
          onSuccess: () => httpEffect
        })
      })
    )
  })
)
