/**
 * The client's address for failed-authentication limiting: the socket's peer, or with TRUST_PROXY the last entry
 * of X-Forwarded-For (the one the operator's own proxy appended; earlier entries are the client's to forge), in one
 * canonical form, since it names a bucket: anything but an IP address would let a client make buckets at will.
 */
import { Context } from "effect"
import type { HttpServerRequest } from "effect/http"
import { isIP } from "node:net"

/**
 * The socket's peer address of a request (a web `Request` carries none), from the server, which provides the lookup
 * once; made only when asked: Bun's costs about a microsecond, and only a failed authentication needs the address.
 */
export const PeerAddress = Context.Reference<(request: HttpServerRequest.HttpServerRequest) => string | undefined>(
  "app/PeerAddress",
  { defaultValue: () => () => undefined }
)

// The longest text an address can be: a full IPv6 address with an IPv4 tail and a zone.
const MAX_LENGTH = 64

/** The eight 16-bit groups of an IPv6 address that `isIP` accepted (zone dropped, an IPv4 tail as two groups). */
const groupsOf = (address: string): Array<number> => {
  const text = address.replace(/%.*$/, "")
  const words = (part: string): Array<number> =>
    part === ""
      ? []
      : part.split(":").flatMap((word) => {
          if (!word.includes(".")) return [Number.parseInt(word, 16)]
          const [a = 0, b = 0, c = 0, d = 0] = word.split(".").map(Number)
          return [(a << 8) | b, (c << 8) | d]
        })
  const gap = text.indexOf("::")
  if (gap === -1) return words(text)
  const head = words(text.slice(0, gap))
  const tail = words(text.slice(gap + 2))
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail]
}

/** RFC 5952's text: lower case, no leading zeros, the longest run of two or more zero groups as "::". */
const formatGroups = (groups: ReadonlyArray<number>): string => {
  let best = -1
  let bestLength = 1
  for (let i = 0; i < groups.length;) {
    let j = i
    while (j < groups.length && groups[j] === 0) j++
    if (j - i > bestLength) [best, bestLength] = [i, j - i]
    i = j === i ? i + 1 : j
  }
  const hex = groups.map((g) => g.toString(16))
  if (best === -1) return hex.join(":")
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`
}

/**
 * One spelling per client, or undefined for text that is not an IP address: IPv4 as it is; IPv4-mapped IPv6
 * (`::ffff:10.8.8.8`, `::ffff:a08:808`) as its IPv4 address; other IPv6 as its /64 (`2001:db8:1:2::/64`), since one
 * host holds a whole /64 and would otherwise have 2^64 budgets.
 */
export const canonicalAddress = (text: string): string | undefined => {
  const address = text.trim()
  if (address.length > MAX_LENGTH) return undefined
  const version = isIP(address)
  if (version === 4) return address
  if (version !== 6) return undefined
  const groups = groupsOf(address)
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6)
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return `${formatGroups([...groups.slice(0, 4), 0, 0, 0, 0])}/64`
}

/** The bucket name of the client: with `trustProxy` the last X-Forwarded-For entry when it is an IP address. */
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
