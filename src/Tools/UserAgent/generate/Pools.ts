// Real traffic's strings, weighted as seen, drawn from those whose parse gives the families asked for.
import { Effect, Random } from "effect"
import type { InvalidRequest } from "../../../Errors.ts"
import type { UserAgentInfo } from "../Schemas.ts"
import { type GenerateOptions, invalid } from "./Combinations.ts"
import { fill } from "./Fill.ts"

export interface TrafficEntry {
  readonly userAgent: string
  readonly weight: number
}

interface Candidate {
  readonly info: UserAgentInfo
  readonly weight: number
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
const THIN = 3

const major = (version: string): number => Number.parseInt(version, 10)
const combination = (info: UserAgentInfo) => `${info.browser.name}|${info.os.name}|${info.device.type}`

export const newestMajors = (infos: Iterable<UserAgentInfo>): Map<string, number> => {
  const newest = new Map<string, number>()
  for (const { browser } of infos) {
    const m = major(browser.version)
    if (Number.isFinite(m)) newest.set(browser.name, Math.max(m, newest.get(browser.name) ?? m))
  }
  return newest
}

const sumBy = (candidates: ReadonlyArray<Candidate>): Map<string, number> => {
  const sums = new Map<string, number>()
  for (const c of candidates) sums.set(combination(c.info), (sums.get(combination(c.info)) ?? 0) + c.weight)
  return sums
}

// Each distinct string parsed once, without bots and versions not current, and fill strings for thin combinations.
// The dropped versions' weight goes to the current strings of their browser, OS and device type: the mix stays.
export const buildPools = Effect.fnUntraced(function* (
  traffic: Iterable<TrafficEntry>,
  parseAll: (userAgents: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<UserAgentInfo>>
) {
  const weights = new Map<string, number>()
  for (const { userAgent, weight } of traffic) weights.set(userAgent, (weights.get(userAgent) ?? 0) + weight)
  const infos = yield* parseAll([...weights.keys()])
  const parsed: Array<Candidate> = [...weights.values()]
    .map((weight, i) => ({ info: infos[i]!, weight, filled: false }))
    .filter(({ info }) => !info.bot.isBot)
  const newest = newestMajors(parsed.map((c) => c.info))
  // a browser the data never gives a version for cannot be judged and stays
  const kept = parsed.filter(({ info }) => {
    const top = newest.get(info.browser.name)
    return top === undefined || major(info.browser.version) >= top - CURRENT_MAJORS
  })
  const before = sumBy(parsed)
  const after = sumBy(kept)
  const current = kept.map((c) => {
    const key = combination(c.info)
    return { ...c, weight: (c.weight * (before.get(key) ?? 0)) / (after.get(key) ?? 1) }
  })
  const counts = sumBy(current.map((c) => ({ ...c, weight: 1 })))
  const smallest = Math.min(...current.map((c) => c.weight))
  const missing = fill.filter((ua) => !weights.has(ua))
  const filled = (yield* parseAll(missing))
    .map((info) => ({ info, weight: smallest, filled: true }))
    .filter((c) => !c.info.bot.isBot && (counts.get(combination(c.info)) ?? 0) < THIN)
  return { candidates: [...current, ...filled], byOptions: new Map<string, Pool>() }
})

const matches = (info: UserAgentInfo, options: GenerateOptions): boolean =>
  (options.browser === undefined || info.browser.name === options.browser) &&
  (options.os === undefined || info.os.name === options.os) &&
  (options.deviceType === undefined || info.device.type === options.deviceType)

export const poolFor = (pools: Pools, options: GenerateOptions): Pool => {
  const key = `${options.browser ?? "*"}|${options.os ?? "*"}|${options.deviceType ?? "*"}`
  const known = pools.byOptions.get(key)
  if (known !== undefined) return known
  const unfiltered = key === "*|*|*"
  const chosen = pools.candidates.filter((c) => (unfiltered ? !c.filled : matches(c.info, options)))
  let total = 0
  const pool = { infos: chosen.map((c) => c.info), cumulative: chosen.map((c) => (total += c.weight)) }
  pools.byOptions.set(key, pool)
  return pool
}

export const pick = (pool: Pool, r: number): UserAgentInfo | undefined => {
  const target = r * (pool.cumulative[pool.cumulative.length - 1] ?? 0)
  const at = pool.cumulative.findIndex((sum) => sum > target)
  return pool.infos[at === -1 ? pool.infos.length - 1 : at]
}

const emptyPool = (options: GenerateOptions): InvalidRequest => {
  const path = options.browser !== undefined ? "browser" : options.os !== undefined ? "os" : "deviceType"
  const asked = [options.browser, options.os, options.deviceType].filter((x) => x !== undefined).join(" on ")
  return invalid(path, `No current user agent of ${asked} is known; leave out ${path} or choose another`)
}

// Item `index` of a list seeded apart, so a list of n is the first n of any longer one; a seed outside [0, 2^32) as
// text, since Effect's seeded Random keeps a number's low 32 bits only.
export const seeded = <A, E, R>(self: Effect.Effect<A, E, R>, seed: number, index = 0): Effect.Effect<A, E, R> =>
  Random.withSeed(
    self,
    index > 0 ? `${seed}:${index}` : Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32 ? seed : `seed:${seed}`
  )

/** A draw from the pool for `options`, a combination the caller has checked (`checkCombination`). */
export const generate = (pools: Pools, options: GenerateOptions): Effect.Effect<UserAgentInfo, InvalidRequest> =>
  Effect.flatMap(Random.next, (r) => {
    const info = pick(poolFor(pools, options), r)
    return info === undefined ? Effect.fail(emptyPool(options)) : Effect.succeed(info)
  })
