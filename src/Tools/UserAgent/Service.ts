// Parses go through a cache (traffic repeats strings); one that asks the device lookups waits for them, so an answer
// never depends on when it came; generation's pools are made on first use.
import { Context, Effect, Layer } from "effect"
import { readFile } from "node:fs/promises"
import trafficFile from "../../../node_modules/user-agents/dist/user-agents.json" with { type: "file" }
import { type InvalidConfig, uaCacheSize } from "../../Config.ts"
import type { InvalidRequest } from "../../Errors.ts"
import { Metrics } from "../../Observability/Metrics.ts"
import { hasClientHints } from "./ClientHints.ts"
import type { UserAgentInfo } from "./Schemas.ts"
import { Slicer } from "./Slicer.ts"
import { DeviceDatabase, type DeviceDataUnreadable } from "./device/Database.ts"
import type { Lookup } from "./device/Lookup.ts"
import { checkCombination, type GenerateOptions, invalid } from "./generate/Combinations.ts"
import { buildPools, generate, type Pools, seeded } from "./generate/Pools.ts"
import { trafficEntries } from "./generate/Traffic.ts"
import { makeParseCache, type ParseCache } from "./parse/Cache.ts"
import { parseUserAgent } from "./parse/Normalise.ts"

export type GenerateRequestOptions = GenerateOptions & { readonly seed?: number | undefined }

type Headers = Readonly<Record<string, string>>

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
const safeParse = (devices: Lookup, userAgent: string, headers?: Headers): UserAgentInfo => {
  try {
    return parseUserAgent(userAgent, headers, { devices })
  } catch {
    return unknown(userAgent)
  }
}

// A wrong count or seed, or a combination no browser has, is answered without loading the data set.
const check = (options: GenerateRequestOptions, count = 1): InvalidRequest | undefined =>
  !Number.isSafeInteger(count) || count < 1
    ? invalid("count", "count must be an integer of at least 1", "must be an integer of at least 1")
    : options.seed !== undefined && !Number.isSafeInteger(options.seed)
      ? invalid("seed", "seed must be an integer", "must be an integer")
      : checkCombination(options)

/**
 * Past this length a string's parse waits for its turn (Slicer.ts), as a batch's strings do. A shorter one, as nearly
 * every real one is, is parsed at once (~0.4 ms for the slowest we know, its brand's models built): a request suspended
 * across turns keeps its objects past the collector's young generation, which raised peak RSS on cold traffic by ~25 MB
 * (bench/README.md).
 */
const LONG_STRING = 512

export class UserAgents extends Context.Service<UserAgents>()("app/UserAgents", {
  make: Effect.gen(function* () {
    const size = yield* uaCacheSize
    // made with the first answer it keeps: lru-cache fills its slots when made, a cost no start has to pay
    let cache: ParseCache | undefined
    const { pause: slice } = yield* Slicer
    const devices = yield* DeviceDatabase
    const metrics = yield* Metrics

    const cacheable = (headers?: Headers) => size > 0 && !hasClientHints(headers)
    const keep = (userAgent: string, headers: Headers | undefined, info: UserAgentInfo) => {
      if (cacheable(headers)) {
        if (cache === undefined) cache = makeParseCache(size)
        cache.set(userAgent, info)
        metrics.countCacheMiss()
      }
      return info
    }
    const parseNow = (identify: Lookup, userAgent: string, headers?: Headers) =>
      keep(userAgent, headers, safeParse(identify, userAgent, headers))
    // Until the lookups are built, a string is first parsed with a lookup that answers nothing and notes being asked:
    // one that never asks (a desktop's, a bot's) is answered so, and the database is built only for one that does.
    const parseFirst = (userAgent: string, headers?: Headers): Effect.Effect<UserAgentInfo> => {
      const built = devices.built()
      if (built !== undefined) return Effect.succeed(parseNow(built.identify, userAgent, headers))
      const asked = { device: false }
      const noting: Lookup = () => {
        asked.device = true
        return undefined
      }
      const info = safeParse(noting, userAgent, headers)
      if (!asked.device) return Effect.succeed(keep(userAgent, headers, info))
      return Effect.map(devices.lookups, ({ identify }) => parseNow(identify, userAgent, headers))
    }
    // No Effect.fn: a span costs more than a hit.
    const answer = (userAgent: string, headers: Headers | undefined, sliced: boolean): Effect.Effect<UserAgentInfo> =>
      Effect.suspend(() => {
        const hit = cacheable(headers) ? cache?.get(userAgent) : undefined
        if (hit !== undefined) {
          metrics.countCacheHit()
          return Effect.succeed(hit)
        }
        if (!sliced) return parseFirst(userAgent, headers)
        return Effect.andThen(
          slice,
          Effect.suspend(() => parseFirst(userAgent, headers))
        )
      })

    // The data set's file is read by path: imported as a module, all of it would stay alive for good.
    const loadPools = Effect.gen(function* () {
      const text = yield* Effect.promise(() => readFile(String(trafficFile), "utf8"))
      const entries = yield* trafficEntries(text, slice)
      const { identify } = yield* devices.lookups
      return yield* buildPools(entries, (ua) => Effect.map(slice, () => safeParse(identify, ua)))
    }).pipe(Effect.withSpan("UserAgents.loadPools"))
    const pools = yield* Effect.cached(loadPools)

    /** `count` strings from item `from` (0 unless paging), each drawn as `seeded` says; callers cap `count`. */
    const generateMany = Effect.fn("UserAgents.generateMany")(function* (
      options: GenerateRequestOptions,
      count: number,
      from = 0
    ) {
      const wrong = check(options, count)
      if (wrong !== undefined) return yield* wrong
      const loaded = yield* pools
      const items: Array<UserAgentInfo> = []
      for (let index = from; index < from + count; index++) {
        const one = generate(loaded, options)
        items.push(yield* options.seed === undefined ? one : seeded(one, options.seed, index))
      }
      return items
    })

    return {
      parse: (userAgent: string, headers?: Headers) => answer(userAgent, headers, userAgent.length > LONG_STRING),
      // A batch's strings take turns with the rest of the service, each uncached one after the slicer's pause.
      parseMany: (userAgents: ReadonlyArray<string>) =>
        Effect.forEach(userAgents, (userAgent) => answer(userAgent, undefined, true)),
      generate: (options: GenerateRequestOptions) => Effect.map(generateMany(options, 1), (items) => items[0]!),
      generateMany
    }
  })
}) {
  static readonly layer: Layer.Layer<UserAgents, DeviceDataUnreadable | InvalidConfig, Metrics> = Layer.effect(
    UserAgents,
    UserAgents.make
  ).pipe(Layer.provide(DeviceDatabase.layer), Layer.provide(Slicer.layer))
}
