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
import type { DeviceDataUnreadable } from "./device/Check.ts"
import { DeviceDatabase } from "./device/Database.ts"
import type { Lookup } from "./device/Lookup.ts"
import { checkCombination, type GenerateOptions, invalid } from "./generate/Combinations.ts"
import { buildPools, generate, type Pools, seeded } from "./generate/Pools.ts"
import { trafficEntries } from "./generate/Traffic.ts"
import { makeParseCache, type ParseCache } from "./parse/Cache.ts"
import { groupsOf, parseGroup, safeFinish, safeRead } from "./parse/Groups.ts"
import type { Reading } from "./parse/Normalise.ts"

export type GenerateRequestOptions = GenerateOptions & { readonly seed?: number | undefined }

type Headers = Readonly<Record<string, string>>

// A wrong count or seed, or a combination no browser has, is answered without loading the data set.
const check = (options: GenerateRequestOptions, count = 1): InvalidRequest | undefined =>
  !Number.isSafeInteger(count) || count < 1
    ? invalid("count", "count must be an integer of at least 1", "must be an integer of at least 1")
    : options.seed !== undefined && !Number.isSafeInteger(options.seed)
      ? invalid("seed", "seed must be an integer", "must be an integer")
      : checkCombination(options)

/**
 * Past this length a string's parse waits for its turn (Slicer.ts), as a batch's groups do. A shorter one, as nearly
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
    const cached = (userAgent: string, headers?: Headers): UserAgentInfo | undefined => {
      const hit = cacheable(headers) ? cache?.get(userAgent) : undefined
      if (hit !== undefined) metrics.countCacheHit()
      return hit
    }
    /**
     * The strings' answers from their readings (the second pass), each kept. Until the lookups are built, each is first
     * finished with a lookup that answers nothing and notes being asked: one that never asks (a desktop's, a bot's) is
     * answered so, and the database is built only for one that does. No string is read again.
     */
    const finish = (
      userAgents: ReadonlyArray<string>,
      readings: ReadonlyArray<Reading | undefined>,
      headers?: Headers
    ): Effect.Effect<ReadonlyArray<UserAgentInfo>> => {
      const built = devices.built()
      if (built !== undefined) {
        return Effect.succeed(
          userAgents.map((userAgent, i) => keep(userAgent, headers, safeFinish(built.identify, userAgent, readings[i])))
        )
      }
      const asking: Array<boolean> = []
      const first = userAgents.map((userAgent, i) => {
        let asked = false
        const noting: Lookup = () => {
          asked = true
          return undefined
        }
        const info = safeFinish(noting, userAgent, readings[i])
        asking.push(asked)
        return info
      })
      if (!asking.includes(true)) return Effect.succeed(first.map((info, i) => keep(userAgents[i]!, headers, info)))
      return Effect.map(devices.lookups, ({ identify }) =>
        userAgents.map((userAgent, i) =>
          keep(userAgent, headers, asking[i] ? safeFinish(identify, userAgent, readings[i]) : first[i]!)
        )
      )
    }
    const parseOne = (userAgent: string, headers?: Headers): Effect.Effect<UserAgentInfo> =>
      Effect.map(finish([userAgent], [safeRead(userAgent, headers)], headers), (infos) => infos[0]!)
    // No Effect.fn: a span costs more than a hit.
    const parse = (userAgent: string, headers?: Headers): Effect.Effect<UserAgentInfo> =>
      Effect.suspend(() => {
        const hit = cached(userAgent, headers)
        if (hit !== undefined) return Effect.succeed(hit)
        if (userAgent.length <= LONG_STRING) return parseOne(userAgent, headers)
        // a request parsing alongside may have kept it while this one waited
        const afterTurn = Effect.suspend(() => {
          const kept = cached(userAgent, headers)
          return kept === undefined ? parseOne(userAgent, headers) : Effect.succeed(kept)
        })
        return Effect.andThen(slice, afterTurn)
      })
    // A batch's strings take turns with the rest of the service: a group of uncached ones after each slicer's pause.
    // A string the batch repeats is parsed once.
    const parseMany = (userAgents: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<UserAgentInfo>> =>
      Effect.suspend(() => {
        const answers = new Map<string, UserAgentInfo>()
        const fresh = new Set<string>()
        for (const userAgent of userAgents) {
          if (answers.has(userAgent) || fresh.has(userAgent)) continue
          const hit = cached(userAgent)
          if (hit === undefined) fresh.add(userAgent)
          else answers.set(userAgent, hit)
        }
        const answerGroup = (group: ReadonlyArray<string>) =>
          Effect.suspend(() => {
            // a request parsing alongside may have kept some of them since
            const uncached: Array<string> = []
            for (const userAgent of group) {
              const hit = cached(userAgent)
              if (hit === undefined) uncached.push(userAgent)
              else answers.set(userAgent, hit)
            }
            const readings = uncached.map((userAgent) => safeRead(userAgent))
            return Effect.map(finish(uncached, readings), (infos) =>
              infos.forEach((info, i) => answers.set(uncached[i]!, info))
            )
          })
        const turns = groupsOf(fresh).map((group) => Effect.andThen(slice, answerGroup(group)))
        return Effect.map(Effect.all(turns, { discard: true }), () =>
          userAgents.map((userAgent) => answers.get(userAgent)!)
        )
      })

    // The data set's file is read by path: imported as a module, all of it would stay alive for good.
    const loadPools = Effect.gen(function* () {
      const text = yield* Effect.promise(() => readFile(String(trafficFile), "utf8"))
      const entries = yield* trafficEntries(text, slice)
      const { identify } = yield* devices.lookups
      // not kept: the data set's strings would fill the cache
      const parseAll = (userAgents: ReadonlyArray<string>) =>
        Effect.map(
          Effect.forEach(groupsOf(userAgents), (group) => Effect.map(slice, () => parseGroup(identify, group))),
          (groups) => groups.flat()
        )
      return yield* buildPools(entries, parseAll)
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
      parse,
      parseMany,
      generate: (options: GenerateRequestOptions) => Effect.map(generateMany(options, 1), (items) => items[0]!),
      generateMany
    }
  })
}) {
  /** Its Slicer, shared with the device database, comes from the composition: Slicer.layer to serve, none offline. */
  static readonly layer: Layer.Layer<UserAgents, DeviceDataUnreadable | InvalidConfig, Metrics | Slicer> = Layer.effect(
    UserAgents,
    UserAgents.make
  ).pipe(Layer.provide(DeviceDatabase.layer))
}
