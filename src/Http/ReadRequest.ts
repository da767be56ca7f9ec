// The request with its body already read. The framework's read of a body makes an AbortController, a cached effect
// run by a fiber of its own and a copy of the bytes: ~3 µs of a ~50 µs request in process (bench/ab.ts).
import { Effect, Inspectable, type Option, Stream } from "effect"
import { type Headers, HttpIncomingMessage, HttpServerError, HttpServerRequest, UrlParams } from "effect/http"

/** `request` whose body is `body`: the steps after the body's checks, the payload's decoding among them, read it. */
export class ReadRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId] = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId] = HttpIncomingMessage.TypeId
  readonly text: Effect.Effect<string>

  constructor(
    readonly request: HttpServerRequest.HttpServerRequest,
    readonly body: string
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
  modify(options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]): HttpServerRequest.HttpServerRequest {
    return new ReadRequest(this.request.modify(options), this.body)
  }
  // a body that cannot be read as asked fails as the framework's own read fails, never as a defect
  private parsed<A>(read: () => A): Effect.Effect<A, HttpServerError.HttpServerError> {
    return Effect.try({
      try: read,
      catch: (cause) =>
        new HttpServerError.HttpServerError({ reason: new HttpServerError.RequestParseError({ request: this, cause }) })
    })
  }
  get json() {
    return this.parsed(() => JSON.parse(this.body))
  }
  get arrayBuffer() {
    return Effect.sync(() => new TextEncoder().encode(this.body).buffer)
  }
  get urlParamsBody() {
    return this.parsed(() => UrlParams.fromInput(new URLSearchParams(this.body)))
  }
  get stream() {
    return Stream.succeed(new TextEncoder().encode(this.body))
  }
  toJSON(): unknown {
    return this.request.toJSON()
  }
}
