/**
 * A request whose body has been read and judged: the same request for everything else. The body checks read the
 * body once (`RequestBody.ts`) and give the steps after them this request, as the framework's own middleware gives a
 * changed request (`request.modify`): the rate limit reads the verdict (a refused body still takes its token) and
 * the parsed body (a batch takes one a string), and the payload decoding reads the text instead of the spent socket.
 */
import { Effect, Inspectable, type Option, Stream } from "effect"
import { type Headers, HttpIncomingMessage, HttpServerRequest, UrlParams } from "effect/http"
import type { InvalidRequest, PayloadTooLarge } from "../Errors.ts"

/** Written out, not a prototype trick: `Object.create(request, ...)` cost 1.3 µs a request in JSC. */
export class ReadRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId] = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId] = HttpIncomingMessage.TypeId
  readonly text: Effect.Effect<string, never>

  constructor(
    readonly request: HttpServerRequest.HttpServerRequest,
    readonly body: string,
    /** The body as JSON, when it is a JSON object the checks accept. */
    readonly parsed: object | undefined,
    /** Why the checks refused the body, if they did. */
    readonly refused: InvalidRequest | PayloadTooLarge | undefined
  ) {
    super()
    this.text = Effect.succeed(body)
  }

  get source(): object {
    return this.request.source
  }
  get url(): string {
    return this.request.url
  }
  get originalUrl(): string {
    return this.request.originalUrl
  }
  get method(): string {
    return this.request.method
  }
  get cookies() {
    return this.request.cookies
  }
  get headers(): Headers.Headers {
    return this.request.headers
  }
  get remoteAddress(): Option.Option<string> {
    return this.request.remoteAddress
  }
  get peerAddress(): Option.Option<string> {
    return this.request.peerAddress
  }
  get protocol() {
    return this.request.protocol
  }
  get multipart() {
    return this.request.multipart
  }
  get multipartStream() {
    return this.request.multipartStream
  }
  get upgrade() {
    return this.request.upgrade
  }
  get upgradeWith() {
    return this.request.upgradeWith
  }
  get modify() {
    return this.request.modify
  }
  get json() {
    return Effect.sync(() => JSON.parse(this.body))
  }
  get arrayBuffer() {
    return Effect.sync(() => new TextEncoder().encode(this.body).buffer as ArrayBuffer)
  }
  get urlParamsBody() {
    return Effect.sync(() => UrlParams.fromInput(new URLSearchParams(this.body)))
  }
  get stream() {
    return Stream.succeed(new TextEncoder().encode(this.body))
  }
  toJSON(): unknown {
    return this.request.toJSON()
  }
}
