/**
 * Realistic user agents from real traffic: the `user-agents` data set, weighted by how often each string was seen,
 * kept only where the string's own parse gives exactly the families asked for, so every answer parses back to the
 * request. Randomness comes from Effect's `Random`, so a seeded `Random` gives the same string every time.
 */
import { Effect, Random } from "effect"
import { InvalidRequest } from "../../../Errors.ts"
import { browserOses, osDevices } from "../Families.ts"
import type { BrowserFamily, DeviceFamily, OsFamily, UserAgentInfo } from "../Schemas.ts"
import { fill } from "./Fill.ts"

export interface GenerateOptions {
  readonly browser?: BrowserFamily | undefined
  readonly os?: OsFamily | undefined
  readonly deviceType?: DeviceFamily | undefined
}

const list = (items: ReadonlyArray<string>, word: "and" | "or"): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`

const invalid = (path: keyof GenerateOptions, message: string) =>
  new InvalidRequest({ message, details: [{ path, message }] })

/**
 * A combination no real browser has, blamed on the most specific field given (browser, then os): the one a person
 * is likeliest to have chosen last. Undefined when the combination exists.
 */
export const checkCombination = (options: GenerateOptions): InvalidRequest | undefined => {
  const { browser, deviceType, os } = options
  if (os !== undefined && deviceType !== undefined && !osDevices[os].includes(deviceType)) {
    const oses = (Object.keys(osDevices) as Array<OsFamily>).filter((o) => osDevices[o].includes(deviceType))
    const only = `${os} runs on ${list(osDevices[os], "and")} devices only`
    return invalid("os", `${only}; for a ${deviceType} device choose os ${list(oses, "or")}`)
  }
  if (browser === undefined) return undefined
  const oses = Object.keys(browserOses[browser]) as Array<OsFamily>
  if (os !== undefined && browserOses[browser][os] !== true) {
    return invalid("browser", `${browser} does not run on ${os}; choose os ${list(oses, "or")}, or another browser`)
  }
  const devices = [...new Set(oses.flatMap((o) => osDevices[o]))]
  if (deviceType !== undefined && !devices.includes(deviceType)) {
    return invalid(
      "browser",
      `${browser} does not run on ${deviceType} devices; choose deviceType ${list(devices, "or")}, or another browser`
    )
  }
  return undefined
}

export interface TrafficEntry {
  readonly userAgent: string
  readonly weight: number
}

interface Candidate {
  readonly info: UserAgentInfo
  readonly weight: number
  /** a fill string: in filtered pools only, never in the unfiltered traffic mix */
  readonly filled: boolean
}

interface Pool {
  readonly infos: ReadonlyArray<UserAgentInfo>
  readonly cumulative: ReadonlyArray<number>
}

export interface Pools {
  readonly candidates: ReadonlyArray<Candidate>
  readonly byOptions: Map<string, Pool>
}

/** How many major versions behind the newest of the same browser in the data a string may be and still be current. */
export const CURRENT_MAJORS = 12
// A combination with fewer data strings than this gets the fill strings of UserAgentFill.ts.
const THIN = 3

const major = (version: string): number => Number.parseInt(version, 10)
const combination = (info: UserAgentInfo) => `${info.browser.name}|${info.os.name}|${info.device.type}`

/** The newest major version of each browser in the data, by the name the parse gives (family or own name). */
export const newestMajors = (infos: Iterable<UserAgentInfo>): Map<string, number> => {
  const newest = new Map<string, number>()
  for (const { browser } of infos) {
    const m = major(browser.version)
    if (Number.isFinite(m)) newest.set(browser.name, Math.max(m, newest.get(browser.name) ?? m))
  }
  return newest
}

// A browser the data never gives a version for (Brave says only "Chrome/...") cannot be judged and stays; a string
// without a version of a browser that has versions elsewhere cannot be shown to be current.
const isCurrent = (info: UserAgentInfo, newest: Map<string, number>): boolean => {
  const top = newest.get(info.browser.name)
  return top === undefined || major(info.browser.version) >= top - CURRENT_MAJORS
}

const sumBy = (candidates: ReadonlyArray<Candidate>): Map<string, number> => {
  const sums = new Map<string, number>()
  for (const c of candidates) sums.set(combination(c.info), (sums.get(combination(c.info)) ?? 0) + c.weight)
  return sums
}

/**
 * Parse every distinct string once (the data repeats strings across screen sizes), drop bots and versions that are
 * not current, and add fill strings to thin combinations. The weight of the dropped versions goes to the current
 * strings of the same browser, OS and device type, so every browser (Samsung Internet, Opera, ... too) and the
 * mobile share keep their weight in the traffic: "current" changes the versions, not the mix.
 */
export const buildPools = (traffic: Iterable<TrafficEntry>, parse: (ua: string) => UserAgentInfo): Pools => {
  const weights = new Map<string, number>()
  for (const { userAgent, weight } of traffic) weights.set(userAgent, (weights.get(userAgent) ?? 0) + weight)
  const parsed: Array<Candidate> = []
  for (const [userAgent, weight] of weights) {
    const info = parse(userAgent)
    if (!info.bot.isBot) parsed.push({ info, weight, filled: false })
  }
  const newest = newestMajors(parsed.map((c) => c.info))
  const kept = parsed.filter((c) => isCurrent(c.info, newest))
  const before = sumBy(parsed)
  const after = sumBy(kept)
  const current = kept.map((c) => {
    const key = combination(c.info)
    return { ...c, weight: (c.weight * (before.get(key) ?? 0)) / (after.get(key) ?? 1) }
  })
  const counts = new Map<string, number>()
  for (const c of current) counts.set(combination(c.info), (counts.get(combination(c.info)) ?? 0) + 1)
  const smallest = Math.min(...current.map((c) => c.weight))
  const filled = fill
    .filter((ua) => !weights.has(ua))
    .map((ua) => ({ info: parse(ua), weight: smallest, filled: true }))
    .filter((c) => !c.info.bot.isBot && (counts.get(combination(c.info)) ?? 0) < THIN)
  return { candidates: [...current, ...filled], byOptions: new Map() }
}

const matches = (info: UserAgentInfo, options: GenerateOptions): boolean =>
  (options.browser === undefined || info.browser.name === options.browser) &&
  (options.os === undefined || info.os.name === options.os) &&
  (options.deviceType === undefined || info.device.type === options.deviceType)

const isUnfiltered = (options: GenerateOptions) =>
  options.browser === undefined && options.os === undefined && options.deviceType === undefined

/** The weighted pool for one set of options, computed the first time it is asked for. */
export const poolFor = (pools: Pools, options: GenerateOptions): Pool => {
  const key = `${options.browser ?? "*"}|${options.os ?? "*"}|${options.deviceType ?? "*"}`
  const known = pools.byOptions.get(key)
  if (known !== undefined) return known
  const unfiltered = isUnfiltered(options)
  // a filtered answer parses back to exactly the families named; fields not named follow the traffic
  const chosen = pools.candidates.filter((c) => (unfiltered ? !c.filled : matches(c.info, options)))
  let total = 0
  const pool = { infos: chosen.map((c) => c.info), cumulative: chosen.map((c) => (total += c.weight)) }
  pools.byOptions.set(key, pool)
  return pool
}

/** The entry whose cumulative weight first passes `r` (in [0, 1)) of the total. */
export const pick = (pool: Pool, r: number): UserAgentInfo | undefined => {
  const total = pool.cumulative[pool.cumulative.length - 1] ?? 0
  const target = r * total
  let low = 0
  let high = pool.cumulative.length - 1
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((pool.cumulative[mid] ?? 0) > target) high = mid
    else low = mid + 1
  }
  return pool.infos[low]
}

const emptyPool = (options: GenerateOptions): InvalidRequest => {
  const path = options.browser !== undefined ? "browser" : options.os !== undefined ? "os" : "deviceType"
  const asked = [options.browser, options.os, options.deviceType].filter((x) => x !== undefined).join(" on ")
  return invalid(path, `No current user agent of ${asked} is known; leave out ${path} or choose another`)
}

/**
 * `self` with Random seeded for item `index` of a list (0: the whole `seed`, `"<seed>:<index>"` after it, so a list of
 * n is the first n of any longer one). Effect's seeded Random keeps a number's low 32 bits only, so a seed outside
 * [0, 2^32) is given as text, which it reads in full.
 */
export const seeded = <A, E, R>(self: Effect.Effect<A, E, R>, seed: number, index = 0): Effect.Effect<A, E, R> =>
  Random.withSeed(
    self,
    index > 0 ? `${seed}:${index}` : Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32 ? seed : `seed:${seed}`
  )

/** A random current user agent matching the options, drawn with the `Random` service in the context. */
export const generate = (pools: Pools, options: GenerateOptions): Effect.Effect<UserAgentInfo, InvalidRequest> =>
  Effect.suspend(() => {
    const wrong = checkCombination(options)
    if (wrong !== undefined) return Effect.fail(wrong)
    const pool = poolFor(pools, options)
    if (pool.infos.length === 0) return Effect.fail(emptyPool(options))
    return Effect.flatMap(Random.next, (r) => {
      const info = pick(pool, r)
      return info === undefined ? Effect.fail(emptyPool(options)) : Effect.succeed(info)
    })
  })
