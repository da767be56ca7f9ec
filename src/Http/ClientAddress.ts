// The client's address for failed-authentication limiting: the peer, or with TRUST_PROXY X-Forwarded-For's last entry
// (the operator's proxy's; earlier ones are the client's to forge), canonical: the client must not choose its bucket.
import { Context } from "effect"
import type { HttpServerRequest } from "effect/http"
import { isIP } from "node:net"

/** The socket's peer address of a request (a web `Request` carries none): looked up only when a limit needs it. */
export const PeerAddress = Context.Reference<(request: HttpServerRequest.HttpServerRequest) => string | undefined>(
  "app/PeerAddress",
  { defaultValue: () => () => undefined }
)

/** The longest text an address can be: a full IPv6 address with an IPv4 tail and a zone. */
const MAX_LENGTH = 64

/** WHATWG's serialisation of an IPv6 address is RFC 5952's: lower case, no leading zeros, the longest zero run "::". */
const hostOf = (address: string): string => new URL(`http://[${address}]`).hostname.slice(1, -1)

/** The eight groups of an IPv6 address that `isIP` accepted, in hex (zone dropped, an IPv4 tail as two groups). */
const groupsOf = (address: string): Array<string> => {
  const [head = "", tail = ""] = hostOf(address.replace(/%.*$/, "")).split("::")
  const words = (part: string) => (part === "" ? [] : part.split(":"))
  const [first, last] = [words(head), words(tail)]
  return [...first, ...Array<string>(8 - first.length - last.length).fill("0"), ...last]
}

// One spelling per client, undefined if not an IP: mapped IPv6 as IPv4; other IPv6 as its /64, as one host holds a /64.
export const canonicalAddress = (text: string): string | undefined => {
  const address = text.trim()
  if (address.length > MAX_LENGTH) return undefined
  const version = isIP(address)
  if (version === 4) return address
  if (version !== 6) return undefined
  const groups = groupsOf(address)
  if (groups.slice(0, 6).join(":") === "0:0:0:0:0:ffff") {
    const [high = 0, low = 0] = groups.slice(6).map((group) => Number.parseInt(group, 16))
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return `${hostOf(`${groups.slice(0, 4).join(":")}::`)}/64`
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
