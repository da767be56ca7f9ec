/**
 * The client's address names its failed-authentication bucket: only an IP address counts, in one spelling per
 * client, IPv6 per /64; anything else in X-Forwarded-For is the socket's peer.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { HttpServerRequest } from "effect/http"
import * as fc from "fast-check"
import { canonicalAddress, clientAddress } from "../../src/Http/ClientAddress.ts"
import { errorOf, makeTestApp, WAGE_PATH } from "../support/TestApp.ts"

const requestWith = (forwardedFor: string) =>
  HttpServerRequest.fromWeb(new Request("http://localhost/", { headers: { "x-forwarded-for": forwardedFor } }))

const hex = (n: number) => n.toString(16)

describe("canonicalAddress", () => {
  test.each([
    ["198.51.100.7", "198.51.100.7"],
    [" 198.51.100.7 ", "198.51.100.7"],
    ["::ffff:10.8.8.8", "10.8.8.8"],
    ["::FFFF:10.8.8.8", "10.8.8.8"],
    ["::ffff:a08:808", "10.8.8.8"],
    ["0:0:0:0:0:ffff:0a08:0808", "10.8.8.8"],
    ["0:0:0:0:0:ffff:10.0.0.1", "10.0.0.1"],
    ["::ffff:0a00:0001", "10.0.0.1"],
    ["::1", "::/64"],
    ["2001:DB8::1", "2001:db8::/64"],
    ["2001:0db8:0000:0000:ffff:0:0:1", "2001:db8::/64"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["1:0:0:1::5", "1:0:0:1::/64"],
    ["fe80::1%eth0", "fe80::/64"]
  ])("%p is %p", (text, canonical) => {
    expect(canonicalAddress(text)).toBe(canonical)
  })

  test("text that is not an IP address is none", () => {
    for (const text of [
      "",
      "junk",
      "unknown",
      "1.2.3",
      "010.1.1.1",
      "1.2.3.4:80",
      "[::1]",
      "1::2::3",
      "1".repeat(8192)
    ]) {
      expect({ text, canonical: canonicalAddress(text) }).toEqual({ text, canonical: undefined })
    }
  })

  test("property: every spelling of an IPv4 address, mapped or not, is that address", () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const [a = 0, b = 0, c = 0, d = 0] = ip.split(".").map(Number)
        for (const text of [ip, `::ffff:${ip}`, `::FFFF:${hex((a << 8) | b)}:${hex((c << 8) | d)}`]) {
          expect(canonicalAddress(text)).toBe(ip)
        }
      })
    )
  })

  test("property: the addresses of one /64 share one name; another /64 has another", () => {
    const group = fc.integer({ min: 0, max: 0xffff })
    const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n })
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), group, (prefix, one, two, other) => {
        fc.pre(!(prefix.slice(0, 3).every((g) => g === 0) && prefix[3] === 0)) // not the mapped range's /64
        const name = canonicalAddress([...prefix, ...one].map(hex).join(":"))
        expect(name).toBe(canonicalAddress([...prefix, ...two].map(hex).join(":")))
        expect(name).toMatch(/^[0-9a-f:]+\/64$/)
        expect(name!.length).toBeLessThanOrEqual(42)
        if (other !== prefix[3]) {
          expect(canonicalAddress([...prefix.slice(0, 3), other, ...one].map(hex).join(":"))).not.toBe(name)
        }
      })
    )
  })

  test("property: any text that is not an IP address is none, however long", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        fc.pre(!/^[\s\d.:a-fA-F%]*$/.test(text))
        expect(canonicalAddress(text)).toBeUndefined()
      })
    )
  })
})

describe("clientAddress", () => {
  test("with TRUST_PROXY, the last X-Forwarded-For entry when it is an address, else the peer", () => {
    const of = (forwardedFor: string, peer?: string) => clientAddress(requestWith(forwardedFor), peer, true)
    expect(of("203.0.113.5, ::ffff:a08:808", "192.0.2.1")).toBe("10.8.8.8")
    expect(of("10.8.8.8, junk", "192.0.2.1")).toBe("192.0.2.1")
    expect(of("x".repeat(8192), "::ffff:192.0.2.1")).toBe("192.0.2.1")
    expect(of("2001:db8::7", "192.0.2.1")).toBe("2001:db8::/64")
    expect(of("junk")).toBe("unknown")
  })
})

describe("junk in X-Forwarded-For makes no buckets (TRUST_PROXY=true)", () => {
  const app = makeTestApp({ authFailuresPerMinute: 3, env: { TRUST_PROXY: "true" } })
  afterAll(() => app.dispose())

  test("a thousand unique junk values are one client, the peer: one bucket, limited after its budget", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 1_000; i++) {
      const junk = `${i}-${"z".repeat(8_000)}`
      const response = await app.post(WAGE_PATH, {}, { key: "wrong", headers: { "x-forwarded-for": junk } })
      statuses.push(response.status)
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401])
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]))
    expect(app.buckets.size().addresses).toBe(1)
  })

  test("one host's /64 is one client", async () => {
    const from = (address: string) => app.post(WAGE_PATH, {}, { key: "wrong", headers: { "x-forwarded-for": address } })
    for (const host of ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:ffff:1:2:3"]) {
      await errorOf(await from(host), 401, "unauthorized")
    }
    await errorOf(await from("2001:DB8:5:6:0:0:0:99"), 429, "rate_limited")
    await errorOf(await from("2001:db8:5:7::1"), 401, "unauthorized")
  })
})
