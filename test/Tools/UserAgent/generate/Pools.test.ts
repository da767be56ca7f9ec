import { describe, expect, test } from "bun:test"
import { Effect, Layer, Random, Result } from "effect"
import * as fc from "fast-check"
import UserAgent from "user-agents"
import { Metrics } from "../../../../src/Observability/Metrics.ts"
import type { InvalidRequest } from "../../../../src/Errors.ts"
import type { BrowserFamily, DeviceFamily, OsFamily } from "../../../../src/Tools/UserAgent/Families.ts"
import type { UserAgentInfo } from "../../../../src/Tools/UserAgent/Schemas.ts"
import { fill } from "../../../../src/Tools/UserAgent/generate/Fill.ts"
import { BROWSER_FAMILIES, browserOses, osDevices } from "../../../../src/Tools/UserAgent/Families.ts"
import { checkCombination, type GenerateOptions } from "../../../../src/Tools/UserAgent/generate/Combinations.ts"
import {
  buildPools,
  CURRENT_MAJORS,
  generate,
  newestMajors,
  poolFor
} from "../../../../src/Tools/UserAgent/generate/Pools.ts"
import { parseUserAgent } from "../../../../src/Tools/UserAgent/parse/Normalise.ts"
import { UserAgents } from "../../../../src/Tools/UserAgent/Service.ts"
import { Slicer } from "../../../../src/Tools/UserAgent/Slicer.ts"

const parseAll = (userAgents: ReadonlyArray<string>) => Effect.sync(() => userAgents.map((ua) => parseUserAgent(ua)))
const pools = Effect.runSync(buildPools(UserAgent.top(), parseAll))

const browsers: ReadonlyArray<BrowserFamily> = BROWSER_FAMILIES
const oses: ReadonlyArray<OsFamily> = ["Windows", "macOS", "iOS", "Android", "Linux"]
const devices: ReadonlyArray<DeviceFamily> = ["Desktop", "Mobile", "Tablet"]

/** The combinations real browsers have: 7 each for Chrome, Firefox and Edge, 3 for Safari, 1 for IE. */
const allowed = browsers.flatMap((browser) =>
  oses
    .filter((os) => browserOses[browser][os] === true)
    .flatMap((os) => osDevices[os].map((deviceType) => ({ browser, os, deviceType })))
)

const run = (options: GenerateOptions, seed: number): Result.Result<UserAgentInfo, InvalidRequest> =>
  Effect.runSync(Effect.result(Random.withSeed(generate(pools, options), seed)))

const draw = (options: GenerateOptions, seed: number): UserAgentInfo => {
  const result = run(options, seed)
  if (Result.isFailure(result)) throw new Error(`${JSON.stringify(options)}: ${result.failure.message}`)
  return result.success
}

const partial = fc.record(
  { browser: fc.constantFrom(...browsers), os: fc.constantFrom(...oses), deviceType: fc.constantFrom(...devices) },
  { requiredKeys: [] }
)

describe("buildPools", () => {
  test("parses each distinct string once: the traffic's, then the fill strings the traffic lacks", () => {
    const calls: Array<string> = []
    const [first = "", ...rest] = fill
    const traffic = ["a", "b", "a", first, "c", "b"].map((userAgent) => ({ userAgent, weight: 1 }))
    const counting = (userAgents: ReadonlyArray<string>) => {
      calls.push(...userAgents)
      return parseAll(userAgents)
    }
    Effect.runSync(buildPools(traffic, counting))
    expect(calls).toEqual(["a", "b", first, "c", ...rest])
  })
})

describe("combinations", () => {
  test("25 combinations exist, and every one can be generated", () => {
    expect(allowed.length).toBe(25)
    for (const options of allowed) {
      expect(checkCombination(options)).toBeUndefined()
      const info = draw(options, 1)
      expect(info).toMatchObject({ browser: { name: options.browser }, os: { name: options.os } })
      expect(info.device.type).toBe(options.deviceType)
    }
  })

  const invalid: ReadonlyArray<readonly [GenerateOptions, string]> = [
    [{ browser: "Safari", os: "Windows" }, "browser"],
    [{ browser: "IE", os: "macOS" }, "browser"],
    [{ browser: "Safari", os: "Android" }, "browser"],
    [{ browser: "IE", deviceType: "Mobile" }, "browser"],
    [{ browser: "Safari", os: "Linux", deviceType: "Desktop" }, "browser"],
    [{ os: "macOS", deviceType: "Mobile" }, "os"],
    [{ os: "Android", deviceType: "Desktop" }, "os"],
    [{ browser: "Chrome", os: "iOS", deviceType: "Desktop" }, "os"]
  ]
  for (const [options, path] of invalid) {
    test(`${JSON.stringify(options)} is an InvalidRequest naming ${path}`, async () => {
      const result = await Effect.runPromise(
        Effect.flatMap(UserAgents, (ua) => Effect.result(ua.generate({ ...options, seed: 1 }))).pipe(
          Effect.provide(UserAgents.layer.pipe(Layer.provide([Metrics.layer, Slicer.layer])))
        )
      )
      if (Result.isSuccess(result)) throw new Error("expected an error")
      expect(result.failure._tag).toBe("InvalidRequest")
      expect(result.failure.details?.[0]?.path).toBe(path)
      // a sentence a person can act on: it says what would work
      expect(result.failure.message).toMatch(/choose/)
    })
  }

  test("any options: valid exactly when some real combination matches them, else a named field", () => {
    fc.assert(
      fc.property(partial, (options) => {
        const exists = allowed.some(
          (c) =>
            (options.browser ?? c.browser) === c.browser &&
            (options.os ?? c.os) === c.os &&
            (options.deviceType ?? c.deviceType) === c.deviceType
        )
        const error = checkCombination(options)
        expect(error === undefined).toBe(exists)
        if (error !== undefined) expect(["browser", "os"]).toContain(error.details?.[0]?.path ?? "")
      }),
      { numRuns: 300 }
    )
  })
})

describe("generation", () => {
  test("over many seeds, every generated string parses back to exactly the requested families", () => {
    const valid = partial.filter((options) => checkCombination(options) === undefined)
    fc.assert(
      fc.property(valid, fc.integer(), (options, seed) => {
        const info = draw(options, seed)
        const reparsed = parseUserAgent(info.userAgent)
        expect(reparsed).toEqual(info)
        if (options.browser !== undefined) expect(reparsed.browser.name).toBe(options.browser)
        if (options.os !== undefined) expect(reparsed.os.name).toBe(options.os)
        if (options.deviceType !== undefined) expect(reparsed.device.type).toBe(options.deviceType)
        expect(reparsed.bot.isBot).toBe(false)
      }),
      { numRuns: 1500 }
    )
  })

  test("the same seed and options give the same string", () => {
    fc.assert(
      fc.property(
        partial.filter((o) => checkCombination(o) === undefined),
        fc.integer(),
        (options, seed) => {
          expect(draw(options, seed).userAgent).toBe(draw(options, seed).userAgent)
        }
      ),
      { numRuns: 200 }
    )
  })

  test("different seeds give a mix, not one string", () => {
    const strings = new Set(Array.from({ length: 200 }, (_, seed) => draw({ browser: "Chrome" }, seed).userAgent))
    expect(strings.size).toBeGreaterThan(10)
  })

  test("without filters the mix follows traffic: Chrome the largest share, a large mobile share", () => {
    const shares = new Map<string, number>()
    let mobile = 0
    const n = 3000
    for (let seed = 0; seed < n; seed++) {
      const info = draw({}, seed)
      shares.set(info.browser.name, (shares.get(info.browser.name) ?? 0) + 1)
      if (info.device.type === "Mobile") mobile++
    }
    const [largest] = [...shares].sort((a, b) => b[1] - a[1])
    expect(largest?.[0]).toBe("Chrome")
    expect(mobile / n).toBeGreaterThan(0.35)
    // real traffic has more than the five families
    expect(shares.size).toBeGreaterThan(5)
  })

  // the data's own parses, bots left out: what "current" and "real traffic shares" are measured against
  const traffic = UserAgent.top()
    .map((entry) => ({ info: parseUserAgent(entry.userAgent), weight: entry.weight }))
    .filter((entry) => !entry.info.bot.isBot)
  const newest = newestMajors(traffic.map((entry) => entry.info))
  const isFamily = (name: string) => (browsers as ReadonlyArray<string>).includes(name)

  test(`versions are current: every string with a version is at most ${CURRENT_MAJORS} majors behind the newest`, () => {
    // the data does have older ones: Chrome 39-60 and Firefox 1 (spoofed), Firefox ESR 140, Edge 131
    expect(traffic.some((t) => Number.parseInt(t.info.browser.version, 10) < (newest.get("Chrome") ?? 0) - 50)).toBe(
      true
    )
    const valid = partial.filter((options) => checkCombination(options) === undefined)
    fc.assert(
      fc.property(valid, fc.integer(), (options, seed) => {
        const { browser } = draw(options, seed)
        const top = newest.get(browser.name)
        const version = Number.parseInt(browser.version, 10)
        // fill strings (filtered pools only) are current by construction and may be newer than the data
        if (top !== undefined) expect(version).toBeGreaterThanOrEqual(top - CURRENT_MAJORS)
      }),
      { numRuns: 2000 }
    )
  })

  const shareOf = (weights: ReadonlyArray<readonly [string, number]>, which: (browser: string) => boolean) =>
    weights.filter(([b]) => which(b)).reduce((sum, [, w]) => sum + w, 0) / weights.reduce((sum, [, w]) => sum + w, 0)
  const data = traffic.map((t) => [t.info.browser.name, t.weight] as const)
  const named = (name: string) => (b: string) => b === name
  const nonFamily = (b: string) => !isFamily(b)

  test("without filters each browser has its share of the traffic data: dropping old versions moves no share", () => {
    const pool = poolFor(pools, {})
    const weights = pool.infos.map(
      (info, i) => [info.browser.name, (pool.cumulative[i] ?? 0) - (pool.cumulative[i - 1] ?? 0)] as const
    )
    expect(shareOf(data, nonFamily)).toBeGreaterThan(0.02)
    // a browser, OS and device type with no current string loses its share: a few hundredths of a point in all
    expect(Math.abs(shareOf(weights, nonFamily) - shareOf(data, nonFamily))).toBeLessThan(0.0005)
    for (const name of new Set(data.map(([b]) => b))) {
      expect([name, Math.abs(shareOf(weights, named(name)) - shareOf(data, named(name))) < 0.0005]).toEqual([
        name,
        true
      ])
    }
  })

  test("seeded draws follow those shares: Samsung Internet, Opera and the non-family browsers in all", () => {
    const n = 3000
    const drawn = Array.from({ length: n }, (_, seed) => [draw({}, seed).browser.name, 1] as const)
    for (const which of [nonFamily, named("Samsung Internet"), named("Opera"), named("Chrome"), named("Safari")]) {
      const p = shareOf(data, which)
      // four standard errors of a share drawn n times
      expect(Math.abs(shareOf(drawn, which) - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n) + 0.001)
    }
  })

  test("every fill string is a real-format string of one of the families", () => {
    for (const ua of fill) {
      const info = parseUserAgent(ua)
      expect(browsers).toContain(info.browser.name as BrowserFamily)
      expect(oses).toContain(info.os.name as OsFamily)
      expect(devices).toContain(info.device.type as DeviceFamily)
      expect(info.bot.isBot).toBe(false)
    }
  })
})
