/**
 * Reading a request body within a byte limit, before anything buffers more than the limit. A declared length over
 * it is refused unread; a body without one (chunked) is counted as it arrives and refused once past the limit.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Chunk, Effect, Stream } from "effect"
import { InvalidRequest, PayloadTooLarge } from "../Domain/Errors.ts"

const unreadable = () => new InvalidRequest({ message: "The request body could not be read" })

export const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<string, InvalidRequest | PayloadTooLarge> => {
  const tooLarge = new PayloadTooLarge({ message: `The request body is over the limit of ${maxBytes} bytes` })
  const declared = request.headers["content-length"]
  if (declared !== undefined) {
    return Number(declared) > maxBytes ? Effect.fail(tooLarge) : Effect.mapError(request.text, unreadable)
  }
  return request.stream.pipe(
    Stream.runFoldWhile(
      { chunks: Chunk.empty<Uint8Array>(), size: 0 },
      (read) => read.size <= maxBytes,
      (read, chunk) => ({ chunks: Chunk.append(read.chunks, chunk), size: read.size + chunk.byteLength })
    ),
    Effect.mapError(unreadable),
    Effect.flatMap(({ chunks, size }) => {
      if (size > maxBytes) return Effect.fail(tooLarge)
      const text = Buffer.concat(Chunk.toReadonlyArray(chunks)).toString("utf8")
      // The stream is consumed now; HttpApi reads the payload through `request.text`, which both request
      // implementations of @effect/platform cache in `textEffect`. Prime that cache with what was read.
      ;(request as unknown as { textEffect: Effect.Effect<string> }).textEffect = Effect.succeed(text)
      return Effect.succeed(text)
    })
  )
}
