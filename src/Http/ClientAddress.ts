// The client's address for failed-authentication limiting: the peer, or with TRUST_PROXY X-Forwarded-For's last entry
// (the operator's proxy's; earlier ones are the client's to forge), canonical: the client must not choose its bucket.
// Not HttpMiddleware.xForwardedHeaders: it walks back past every trusted hop to an earlier entry, where the contract
// takes the last one; and the peer is looked up only when a failed authentication needs it, not set on every request.
import { Context, Result } from "effect"
import type { HttpServerRequest } from "effect/http"
import { IpNetwork, NetAddress } from "effect/net"

/** The socket's peer address of a request (a web `Request` carries none): looked up only when a limit needs it. */
export const PeerAddress = Context.Reference<(request: HttpServerRequest.HttpServerRequest) => string | undefined>(
  "app/PeerAddress",
  { defaultValue: () => () => undefined }
)

/** The longest text an address can be: a full IPv6 address with an IPv4 tail and a zone. */
const MAX_LENGTH = 64

// One spelling per client, undefined if not an IP: mapped IPv6 as IPv4; other IPv6 as its /64, as one host holds a /64.
export const canonicalAddress = (text: string): string | undefined => {
  const address = text.trim()
  if (address.length > MAX_LENGTH) return undefined
  // an IPv6 zone (fe80::1%eth0) names the interface it came in on, not the host
  const parsed = NetAddress.ipFromString(address.includes(":") ? address.replace(/%.*$/, "") : address)
  if (Result.isFailure(parsed)) return undefined
  const ip = NetAddress.toCanonical(parsed.success)
  return NetAddress.isIpv4Address(ip) ? NetAddress.formatIp(ip) : IpNetwork.format(IpNetwork.fromAddressUnsafe(ip, 64))
}

export const clientAddress = (
  request: HttpServerRequest.HttpServerRequest,
  peer: string | undefined,
  trustProxy: boolean
): string => {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"]
    if (forwarded !== undefined) {
      const last = canonicalAddress(forwarded.slice(forwarded.lastIndexOf(",") + 1))
      if (last !== undefined) return last
    }
  }
  return (peer === undefined ? undefined : canonicalAddress(peer)) ?? "unknown"
}
