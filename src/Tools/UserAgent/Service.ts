/**
 * The user-agent parser and generator as a service. Parsing is pure (`Tools/UserAgent/UserAgentNormalise.ts`); this adds a
 * bounded cache, because real traffic repeats a few thousand strings and a parse is costly. Generation loads the
 * traffic data set on first use only, so a process that never generates never pays for it; a generate that comes
 * while it loads waits for it, other requests do not. A parse waits for the device database's lookups
 * (DeviceDatabase, built in the background from the start), so its answer is the same whenever it comes.
 */
import { Context, Effect, Layer, Metric, Random } from "effect"
import { readFile } from "node:fs/promises"
import trafficFile from "../../../node_modules/user-agents/dist/user-agents.json" with { type: "file" }
import { AppConfig } from "../../Config.ts"
import { InvalidRequest } from "../../Errors.ts"
import type { UserAgentInfo } from "./Schemas.ts"
import { DeviceDatabase, type DeviceDataUnreadable } from "./device/Database.ts"
import type { Lookup } from "./device/Lookup.ts"
import { Slicer } from "./Slicer.ts"
import { parseAll, trafficEntries } from "./generate/Traffic.ts"
import { fill } from "./generate/Fill.ts"
import { buildPools, checkCombination, generate, type GenerateOptions, seeded, wholeSeed } from "./generate/Pools.ts"
import { parseUserAgent } from "./parse/Normalise.ts"
import { makeParseCache } from "./parse/Cache.ts"

export interface GenerateRequestOptions extends GenerateOptions {
  readonly seed?: number | undefined
}

/**
 * The seed of a batch's item `index` (from 0): the batch's own seed for the first, so a batch of one is the single
 * answer, and `"<seed>:<index>"` after it. Each item stands alone, so a batch of n is the first n of any longer one
 * with the same seed and options, and a long batch can be made page by page.
 */
export const itemSeed = (seed: number, index: number): number | string =>
  index === 0 ? wholeSeed(seed) : `${seed}:${index}`

const invalid = (path: string, problem: string) =>
  new InvalidRequest({ message: `${path} ${problem}`, details: [{ path, message: problem }] })

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
const safeParse = (devices: Lookup, userAgent: string, headers?: Readonly<Record<string, string>>): UserAgentInfo => {
  try {
    return parseUserAgent(userAgent, headers, { devices })
  } catch {
    return unknown(userAgent)
  }
}

export class UserAgents extends Context.Service<
  UserAgents,
  {
    readonly parse: (userAgent: string, headers?: Readonly<Record<string, string>>) => Effect.Effect<UserAgentInfo>
    /** Each string as `parse` gives it (through the same cache), in order. */
    readonly parseMany: (userAgents: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<UserAgentInfo>>
    readonly generate: (options: GenerateRequestOptions) => Effect.Effect<UserAgentInfo, InvalidRequest>
    /**
     * `count` strings (from item `from`, 0 unless paging), the options applied to each; with a seed, item i is
     * drawn with `itemSeed(seed, i)`, so the list is the same every time. No upper bound here: callers cap it.
     */
    readonly generateMany: (
      options: GenerateRequestOptions,
      count: number,
      from?: number
    ) => Effect.Effect<ReadonlyArray<UserAgentInfo>, InvalidRequest>
  }
>()("app/UserAgents") {
  static readonly layer: Layer.Layer<UserAgents, DeviceDataUnreadable, AppConfig> = Layer.effect(
    UserAgents,
    Effect.gen(function* () {
      const size = (yield* AppConfig).uaCacheSize
      const cache = size > 0 ? makeParseCache(size) : undefined

      // one pause point for all of the service's costly work (Slices.ts)
      const { pause: slice } = yield* Slicer
      const devices = yield* DeviceDatabase
      // a parse without the cache, once the device database's lookups are built
      const parseFresh = (
        userAgent: string,
        headers?: Readonly<Record<string, string>>
      ): Effect.Effect<UserAgentInfo> =>
        Effect.map(devices.lookups, ({ identify }) => safeParse(identify, userAgent, headers))

      /**
       * The pools from the data set's strings and weights. Its JSON file is read by path (and embedded in the
       * compiled binary by the import) rather than through the package's module, which would keep all 10,000 entries
       * with every field (screen sizes, plugins, ...) alive for good: read once, cut to two fields, the rest is
       * garbage (about 10 MB of heap). Read and parsed a slice at a time (Traffic.ts), so other requests go on
       * meanwhile.
       */
      const loadPools = Effect.gen(function* () {
        const text = yield* Effect.promise(() => readFile(trafficFile as unknown as string, "utf8"))
        const entries = yield* trafficEntries(text, slice)
        const parsed = yield* parseAll([...entries.map((entry) => entry.userAgent), ...fill], parseFresh, slice)
        const { identify } = yield* devices.lookups
        return buildPools(entries, (ua) => parsed.get(ua) ?? safeParse(identify, ua))
      }).pipe(Effect.withSpan("UserAgents.loadPools"))
      const pools = yield* Effect.cached(loadPools)

      const cacheable = (headers?: Readonly<Record<string, string>>) => cache !== undefined && !hasClientHints(headers)
      const cached = (userAgent: string, headers?: Readonly<Record<string, string>>): UserAgentInfo | undefined => {
        const hit = cacheable(headers) ? cache?.get(userAgent) : undefined
        if (hit !== undefined) cacheHits.updateUnsafe(1, registry)
        return hit
      }
      // The answer, cached where it can be.
      const parseNow = (identify: Lookup, userAgent: string, headers?: Readonly<Record<string, string>>) => {
        const info = safeParse(identify, userAgent, cacheable(headers) ? undefined : headers)
        if (cacheable(headers)) {
          cache?.set(userAgent, info)
          cacheMisses.updateUnsafe(1, registry)
        }
        return info
      }
      // Every uncached parse, of every request, takes its turn in one slicer: many costly parses at once hold other
      // requests for a slice, not for all their work. A parse that comes before the device database's lookups are
      // built waits for them: its answer never depends on when it came. No Effect.fn: a span costs more than a hit.
      const parseUncached = (userAgent: string, headers?: Readonly<Record<string, string>>) =>
        Effect.andThen(
          slice,
          Effect.map(devices.lookups, ({ identify }) => parseNow(identify, userAgent, headers))
        )
      const parse = (userAgent: string, headers?: Readonly<Record<string, string>>): Effect.Effect<UserAgentInfo> =>
        Effect.suspend(() => {
          const hit = cached(userAgent, headers)
          return hit === undefined ? parseUncached(userAgent, headers) : Effect.succeed(hit)
        })
      const parseMany = (userAgents: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<UserAgentInfo>> =>
        Effect.gen(function* () {
          const answers: Array<UserAgentInfo> = []
          for (const userAgent of userAgents) answers.push(cached(userAgent) ?? (yield* parseUncached(userAgent)))
          return answers
        })

      // a wrong seed or a combination no browser has is answered without loading the data set
      const check = (options: GenerateRequestOptions): InvalidRequest | undefined =>
        options.seed !== undefined && !Number.isSafeInteger(options.seed)
          ? invalid("seed", "must be an integer")
          : checkCombination(options)

      const generateOne = Effect.fn("UserAgents.generate")(function* (options: GenerateRequestOptions) {
        const wrong = check(options)
        if (wrong !== undefined) return yield* wrong
        const drawn = generate(yield* pools, options)
        return yield* options.seed === undefined ? drawn : seeded(drawn, options.seed)
      })

      const generateMany = Effect.fn("UserAgents.generateMany")(function* (
        options: GenerateRequestOptions,
        count: number,
        from = 0
      ) {
        if (!Number.isSafeInteger(count) || count < 1)
          return yield* invalid("count", "must be an integer of at least 1")
        const wrong = check(options)
        if (wrong !== undefined) return yield* wrong
        const loaded = yield* pools
        const { seed } = options
        const items: Array<UserAgentInfo> = []
        for (let index = from; index < from + count; index++) {
          const drawn = generate(loaded, options)
          items.push(yield* seed === undefined ? drawn : Random.withSeed(drawn, itemSeed(seed, index)))
        }
        return items
      })

      return UserAgents.of({ parse, parseMany, generate: generateOne, generateMany })
    })
  ).pipe(Layer.provide(DeviceDatabase.layer), Layer.provide(Slicer.layer))
}
