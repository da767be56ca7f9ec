/**
 * The user-agent parser and generator as a service. Parsing is pure (`Tools/UserAgent/UserAgentNormalise.ts`); this adds a
 * bounded cache, because real traffic repeats a few thousand strings and a parse is costly. Generation loads the
 * traffic data set on first use only, so a process that never generates never pays for it.
 */
import { Context, Effect, Layer, Metric, Random } from "effect"
import { readFile } from "node:fs/promises"
import trafficFile from "../../../node_modules/user-agents/dist/user-agents.json" with { type: "file" }
import { AppConfig } from "../../Config.ts"
import { InvalidRequest } from "../../Errors.ts"
import type { UserAgentInfo } from "./UserAgent.ts"
import { buildPools, checkCombination, generate, type GenerateOptions, type TrafficEntry } from "./UserAgentGenerate.ts"
import { parseUserAgent } from "./UserAgentNormalise.ts"
import { makeParseCache } from "./ParseCache.ts"

export interface GenerateRequestOptions extends GenerateOptions {
  readonly seed?: number | undefined
}

const cacheHits = Metric.counter("ua_parse_cache_hits_total", {
  description: "User-agent parses answered from the cache",
  incremental: true
})
const cacheMisses = Metric.counter("ua_parse_cache_misses_total", {
  description: "User-agent parses computed and cached",
  incremental: true
})
// Updated in place in the default registry that /metrics reads; registered now, so they show 0 from the start.
const registry = Context.empty()
cacheHits.updateUnsafe(0, registry)
cacheMisses.updateUnsafe(0, registry)

// Only client hints change a parse; other headers (or none) leave the string's own answer, which can be cached.
const hasClientHints = (headers: Readonly<Record<string, string>> | undefined): headers is Record<string, string> =>
  headers !== undefined && Object.keys(headers).some((name) => name.toLowerCase().startsWith("sec-ch-ua"))

const unknown = (userAgent: string): UserAgentInfo => ({
  userAgent,
  browser: { name: "Unknown", version: "Unknown" },
  os: { name: "Unknown", version: "Unknown" },
  device: { type: "Unknown", vendor: "Unknown", model: "Unknown", name: "Unknown" },
  cpu: { architecture: "Unknown" },
  engine: { name: "Unknown", version: "Unknown" },
  bot: { isBot: false, name: "Unknown", category: "Unknown" }
})

// The parser is third-party code fed arbitrary input: a throw must not become a 500 for one odd string.
const safeParse = (userAgent: string, headers?: Readonly<Record<string, string>>): UserAgentInfo => {
  try {
    return parseUserAgent(userAgent, headers)
  } catch {
    return unknown(userAgent)
  }
}

/**
 * The data set's strings with their weights. Its JSON file is read by path (and embedded in the compiled binary by
 * the import) rather than through the package's module, which would keep all 10,000 entries with every field
 * (screen sizes, plugins, ...) alive for good: read once, cut to two fields, the rest is garbage (about 10 MB of heap).
 */
const traffic = async (): Promise<Array<TrafficEntry>> => {
  const entries: ReadonlyArray<TrafficEntry> = JSON.parse(await readFile(trafficFile as unknown as string, "utf8"))
  return entries.map(({ userAgent, weight }) => ({ userAgent, weight }))
}

const loadPools = Effect.promise(traffic).pipe(
  Effect.map((entries) => buildPools(entries, (ua) => safeParse(ua))),
  Effect.withSpan("UserAgents.loadPools")
)

export class UserAgents extends Context.Service<
  UserAgents,
  {
    readonly parse: (userAgent: string, headers?: Readonly<Record<string, string>>) => Effect.Effect<UserAgentInfo>
    readonly generate: (options: GenerateRequestOptions) => Effect.Effect<UserAgentInfo, InvalidRequest>
  }
>()("app/UserAgents") {
  static readonly layer: Layer.Layer<UserAgents, never, AppConfig> = Layer.effect(
    UserAgents,
    Effect.gen(function* () {
      const size = (yield* AppConfig).uaCacheSize
      const cache = size > 0 ? makeParseCache(size) : undefined
      const pools = yield* Effect.cached(loadPools)

      // No Effect.fn here: a span per parse would cost more than the cached parse itself.
      const parse = (userAgent: string, headers?: Readonly<Record<string, string>>): Effect.Effect<UserAgentInfo> =>
        Effect.sync(() => {
          if (cache === undefined || hasClientHints(headers)) return safeParse(userAgent, headers)
          const cached = cache.get(userAgent)
          if (cached !== undefined) {
            cacheHits.updateUnsafe(1, registry)
            return cached
          }
          const info = safeParse(userAgent)
          cache.set(userAgent, info)
          cacheMisses.updateUnsafe(1, registry)
          return info
        })

      const generateOne = Effect.fn("UserAgents.generate")(function* (options: GenerateRequestOptions) {
        if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
          const message = "seed must be an integer"
          return yield* new InvalidRequest({ message, details: [{ path: "seed", message }] })
        }
        // a combination no browser has is answered without loading the data set
        const wrong = checkCombination(options)
        if (wrong !== undefined) return yield* wrong
        const drawn = generate(yield* pools, options)
        return yield* options.seed === undefined ? drawn : Random.withSeed(drawn, options.seed)
      })

      return UserAgents.of({ parse, generate: generateOne })
    })
  )
}
