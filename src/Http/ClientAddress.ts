/**
 * The client's address for failed-authentication limiting: the socket's peer, or with TRUST_PROXY the last entry
 * of X-Forwarded-For (the one the operator's own proxy appended; earlier entries are the client's to forge).
 */
import { Context } from "effect"
import type { HttpServerRequest } from "effect/http"
import { normaliseAddress } from "../RateLimit/RateLimiter.ts"

/**
 * The socket's peer address of a request (a web `Request` carries none), from the server, which provides the lookup
 * once; made only when asked: Bun's costs about a microsecond, and only a failed authentication needs the address.
 */
export const PeerAddress = Context.Reference<(request: HttpServerRequest.HttpServerRequest) => string | undefined>(
  "app/PeerAddress",
  { defaultValue: () => () => undefined }
)

export const clientAddress = (
  request: HttpServerRequest.HttpServerRequest,
  peer: string | undefined,
  trustProxy: boolean
): string => {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"]
    if (forwarded !== undefined) {
      const last = forwarded.slice(forwarded.lastIndexOf(",") + 1).trim()
      if (last !== "") return normaliseAddress(last)
    }
  }
  return peer === undefined ? "unknown" : normaliseAddress(peer)
}
