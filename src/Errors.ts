// Client-visible errors: a tagged class in code, the contract's one envelope on the wire, the status between the two.
import { Schema, SchemaTransformation } from "effect"
import { HttpApiMiddleware, HttpApiSchema } from "effect/http-api"

export const Detail = Schema.Struct({
  path: Schema.String.annotate({
    description: "The request field at fault, dotted for nested fields",
    examples: ["hourlyWage"]
  }),
  message: Schema.String.annotate({ description: "What is wrong with it", examples: ["must be greater than 0"] })
}).annotate({ identifier: "Detail" })

/** `a`, `a or b`, `a, b or c`: the choices a message offers. */
export const list = (items: ReadonlyArray<string>, word: "and" | "or"): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${word} ${items.at(-1)}`

/** Marks a schema issue as a value present but not allowed: the 422 `invalid_value`, where any other issue is a 400. */
export const INVALID_VALUE = "toolsApi/invalidValue"

const fields = { message: Schema.String, details: Schema.optionalKey(Schema.Array(Detail)) }
type Fields = Schema.Struct.Type<typeof fields>

/** Only a 429 says more than a message: when to come back, as its `Retry-After` says. */
const retryAfterSeconds = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
  description: "Whole seconds until a request can succeed again; the same as the Retry-After header",
  examples: [1]
})

const errorOf = <const Code extends string, const Extra extends Schema.Struct.Fields>(
  code: Code,
  example: string,
  extra: Extra
) =>
  Schema.Struct({
    code: Schema.Literal(code),
    message: Schema.String.annotate({ description: "A sentence a person can act on", examples: [example] }),
    details: Schema.optionalKey(Schema.Array(Detail)),
    ...extra
  })

type WireOptions<Code extends string> = { status: number; code: Code; description: string; example: string }

/** The envelope on the encoded side, the class on the decoded side; `extra` names the fields beyond a message. */
const wire = <
  Self extends { readonly _tag: string },
  Input,
  const Code extends string,
  const Extra extends Schema.Struct.Fields
>(
  error: Schema.Codec<Self, unknown> & (new (fields: Input) => Self),
  options: WireOptions<Code> & { readonly extra: Extra },
  toError: (self: Self, code: Code) => Schema.Struct.Type<ReturnType<typeof errorOf<Code, Extra>>["fields"]>,
  toInput: (error: Schema.Struct.Type<ReturnType<typeof errorOf<Code, Extra>>["fields"]>) => Input
) =>
  Schema.Struct({ success: Schema.Literal(false), error: errorOf(options.code, options.example, options.extra) })
    .annotate({
      identifier: String(error.ast.annotations?.identifier),
      title: options.code,
      description: options.description
    })
    .pipe(
      Schema.decodeTo(
        Schema.toType(error),
        SchemaTransformation.transform({
          decode: (envelope) => new error(toInput(envelope.error)),
          encode: (self) => ({ success: false as const, error: toError(self, options.code) })
        })
      ),
      HttpApiSchema.status(options.status)
    )

/** The message and any details: an error's message is its own, not a field the class spreads. */
const fieldsOf = ({ details, message }: Fields): Fields => ({ message, ...(details && { details }) })

const plain = <Self extends Fields & { readonly _tag: string }, const Code extends string>(
  error: Schema.Codec<Self, unknown> & (new (fields: Fields) => Self),
  options: WireOptions<Code>
) => wire(error, { ...options, extra: {} }, (self, code) => ({ code, ...fieldsOf(self) }), fieldsOf)

export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", fields) {}
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", fields) {}
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", fields) {}
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", fields) {}
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", fields) {}
export class InvalidValue extends Schema.TaggedError<InvalidValue>()("InvalidValue", fields) {}
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", { ...fields, retryAfterSeconds }) {}
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", fields) {}
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", fields) {}

export const InvalidRequestWire = plain(InvalidRequest, {
  status: 400,
  code: "invalid_request",
  description: "The body is not a JSON object, has the wrong Content-Type, or a field is missing or of the wrong type",
  example: 'operation must be "parse" or "generate"'
})
export const UnauthorizedWire = plain(Unauthorized, {
  status: 401,
  code: "unauthorized",
  description: "No valid API key: send `Authorization: Bearer <key>`",
  example: "Send a valid API key as Authorization: Bearer <key>"
})
export const NotFoundWire = plain(NotFound, {
  status: 404,
  code: "not_found",
  description: "No such path",
  example: "No route for /v1/tools/unknown"
})
export const MethodNotAllowedWire = plain(MethodNotAllowed, {
  status: 405,
  code: "method_not_allowed",
  description: "The path exists but not with this method; `Allow` lists the methods it has",
  example: "GET is not allowed on /v1/tools/wage-estimator; use POST"
})
export const PayloadTooLargeWire = plain(PayloadTooLarge, {
  status: 413,
  code: "payload_too_large",
  description: "The body is over the size limit (16 KiB by default)",
  example: "The request body is over the limit of 16384 bytes"
})
export const InvalidValueWire = plain(InvalidValue, {
  status: 422,
  code: "invalid_value",
  description: "A wage value is present but not a positive finite number within bounds",
  example: "hourlyWage must be a positive number"
})
export const RateLimitedWire = wire(
  RateLimited,
  {
    status: 429,
    code: "rate_limited",
    description:
      "The key's bucket is empty, or too many failed authentications came from this address; see `Retry-After`",
    example: "Rate limit of 100 requests per minute exceeded; retry in 1 second",
    extra: { retryAfterSeconds }
  },
  (self, code) => ({ code, ...fieldsOf(self), retryAfterSeconds: self.retryAfterSeconds }),
  (error) => ({ ...fieldsOf(error), retryAfterSeconds: error.retryAfterSeconds })
)
export const InternalErrorWire = plain(InternalError, {
  status: 500,
  code: "internal_error",
  description: "A bug on our side; the log line with the same request id has the detail",
  example: "Something went wrong on our side; the request id identifies it in the logs"
})
export const ServiceUnavailableWire = plain(ServiceUnavailable, {
  status: 503,
  code: "service_unavailable",
  description: "The process is draining on shutdown; retry on another instance",
  example: "The server is shutting down; retry shortly"
})

/** For an endpoint whose payload can hold a value present but not allowed: its schema's issue is then the 422. */
export class ValueErrors extends HttpApiMiddleware.Service<ValueErrors>()("app/ValueErrors", {
  error: [InvalidRequestWire, InvalidValueWire]
}) {}
