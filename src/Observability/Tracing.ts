/**
 * What the service adds to the framework's request span, from the middleware that knows it: the caller's id and
 * child spans for the rate limiter and the tool. The middleware looks the request's span up once (`requestSpan`);
 * when there is none (no tracer installed: Otlp.ts) or it is not kept, these do nothing and allocate nothing.
 */
import { Effect, type Fiber, type Tracer } from "effect"

/** The attribute naming the caller: `key_<8 hex>`, never the key or its digest. */
const KEY_ID_ATTRIBUTE = "tools_api.key_id"

/** The request's span, if it is traced and sampled (a span not kept is not worth adding to); a field read. */
export const requestSpan = (fiber: Fiber.Fiber<unknown, unknown>): Tracer.Span | undefined => {
  const span = fiber.cache.span
  return span !== undefined && span._tag === "Span" && span.sampled ? span : undefined
}

/** Names the caller on the request's span. */
export const annotateCaller = (span: Tracer.Span | undefined, keyId: string): void =>
  span?.attribute(KEY_ID_ATTRIBUTE, keyId)

/**
 * `effect` as a child of the request's span, or as it is when the request is not traced. No stack trace is
 * captured: it costs an `Error` per span on every request, and the span's name already says where it is.
 */
export const childSpan = <A, E, R>(
  span: Tracer.Span | undefined,
  name: string,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => (span === undefined ? effect : Effect.withSpan(effect, name, { captureStackTrace: false }))
