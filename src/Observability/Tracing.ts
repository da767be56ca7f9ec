/**
 * What the service adds to the framework's request span, from the middleware that knows it: the caller's id and
 * child spans for the rate limiter and the tool. Each reads the request's span from the context it is given and,
 * when there is none (no tracer installed: Otlp.ts), does nothing and allocates nothing.
 */
import { Context, Effect, Tracer } from "effect"

/** The attribute naming the caller: `key_<8 hex>`, never the key or its digest. */
const KEY_ID_ATTRIBUTE = "tools_api.key_id"

/** The request's span, if it is traced and sampled (a span not kept is not worth adding to). */
const requestSpan = (context: Context.Context<never>): Tracer.Span | undefined => {
  const span = Context.getOrUndefined(context, Tracer.ParentSpan)
  return span !== undefined && span._tag === "Span" && span.sampled ? span : undefined
}

/** Names the caller on the request's span. */
export const annotateCaller = (context: Context.Context<never>, keyId: string): void =>
  requestSpan(context)?.attribute(KEY_ID_ATTRIBUTE, keyId)

/**
 * `effect` as a child span of the request's, or as it is when the request is not traced. No stack trace is
 * captured: it costs an `Error` per span on every request, and the span's name already says where it is.
 */
export const childSpan = <A, E, R>(
  context: Context.Context<never>,
  name: string,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  requestSpan(context) === undefined ? effect : Effect.withSpan(effect, name, { captureStackTrace: false })
