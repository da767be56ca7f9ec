/**
 * The client's address for failed-authentication limiting: the socket's peer, or with TRUST_PROXY the last entry
 * of X-Forwarded-For (the one the operator's own proxy appended; earlier entries are the client's to forge).
 */
import type { HttpServerRequest } from "@effect/platform"
import { normaliseAddress } from "../Services/RateLimiter.ts"

export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"]
    if (forwarded !== undefined) {
      const last = forwarded.slice(forwarded.lastIndexOf(",") + 1).trim()
      if (last !== "") return normaliseAddress(last)
    }
  }
  const peer = request.remoteAddress
  return peer._tag === "Some" ? normaliseAddress(peer.value) : "unknown"
}
