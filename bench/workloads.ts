/**
 * The request files the load generator cycles through, one request a line (`<path>\t<json body>`), generated from a
 * fixed seed so every run sends the same requests.
 *
 * - ua-mix: parse requests drawn from real traffic (the `user-agents` data set, weighted by `weight`, so popular
 *   strings repeat as they do in real life and the parse cache is warm), 1 in 50 a generate.
 * - ua-cold: 20,000 distinct strings, more than the default parse cache holds, cycled: every parse is a miss.
 * - wage: hourly wages and annual salaries, half and half, with cents.
 * - ua-batch: parse requests of 100 strings each (`userAgents`), drawn as ua-mix draws, so the cache is as warm: the
 *   same parses as 100 ua-mix requests in one. A body is about 13 KB, within the default 16 KiB limit (one over it
 *   would be drawn again).
 */
import UserAgent from "user-agents"

export const WORKLOADS = ["ua-mix", "ua-cold", "wage", "ua-batch"] as const
export type Workload = (typeof WORKLOADS)[number]

const UA_PATH = "/v1/tools/user-agent-parser"
const WAGE_PATH = "/v1/tools/wage-estimator"

/** mulberry32: a small seeded PRNG, so the files are the same on every run. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const parse = (userAgent: string) => `${UA_PATH}\t${JSON.stringify({ operation: "parse", userAgent })}`

const traffic = () => UserAgent.top().map(({ userAgent, weight }) => ({ userAgent, weight }))

/** User agents drawn from real traffic by weight, with `random`. */
const drawer = (random: () => number) => {
  const entries = traffic()
  let total = 0
  const cumulative = entries.map((e) => (total += e.weight))
  const draw = () => {
    const target = random() * total
    let low = 0
    let high = cumulative.length - 1
    while (low < high) {
      const mid = (low + high) >>> 1
      if (cumulative[mid]! > target) high = mid
      else low = mid + 1
    }
    return entries[low]!.userAgent
  }
  return draw
}

const uaMix = (count: number): Array<string> => {
  const draw = drawer(prng(1))
  return Array.from({ length: count }, (_, i) =>
    i % 50 === 49 ? `${UA_PATH}\t{"operation":"generate"}` : parse(draw())
  )
}

/**
 * Distinct strings: the real ones first, then variants of them with one version number changed, which the parser
 * walks through the same rules as the original (the data set holds under a thousand distinct strings).
 */
const uaCold = (count: number): Array<string> => {
  const bases = [...new Set(traffic().map((e) => e.userAgent))]
  const seen = new Set<string>()
  const lines: Array<string> = []
  for (let i = 0; lines.length < count; i++) {
    const base = bases[i % bases.length]!
    const variant = Math.floor(i / bases.length)
    const ua =
      variant === 0 ? base : base.replace(/(\d+)(?!.*\d)/, (digits) => String(Number(digits) + variant * 1000 + 1))
    if (seen.has(ua)) continue
    seen.add(ua)
    lines.push(parse(ua))
  }
  const random = prng(2)
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[lines[i], lines[j]] = [lines[j]!, lines[i]!]
  }
  return lines
}

const wage = (count: number): Array<string> => {
  const random = prng(3)
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `${WAGE_PATH}\t${JSON.stringify({ hourlyWage: Math.round((7.25 + random() * 300) * 100) / 100 })}`
      : `${WAGE_PATH}\t${JSON.stringify({ annualSalary: Math.round((15_000 + random() * 485_000) * 100) / 100 })}`
  )
}

/** User agents a batch request of `ua-batch` holds; its figures are per user agent too. */
export const BATCH_SIZE = 100
const MAX_BODY_BYTES = 16_384

const uaBatch = (count: number): Array<string> => {
  const draw = drawer(prng(4))
  const lines: Array<string> = []
  while (lines.length < count) {
    const body = JSON.stringify({ operation: "parse", userAgents: Array.from({ length: BATCH_SIZE }, draw) })
    if (Buffer.byteLength(body) <= MAX_BODY_BYTES) lines.push(`${UA_PATH}\t${body}`)
  }
  return lines
}

export const requestLines = (workload: Workload): Array<string> => {
  switch (workload) {
    case "ua-mix":
      return uaMix(20_000)
    case "ua-cold":
      return uaCold(20_000)
    case "wage":
      return wage(5_000)
    case "ua-batch":
      return uaBatch(500)
  }
}
