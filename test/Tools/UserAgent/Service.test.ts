import { describe, expect, test } from "bun:test"
import crawlers from "crawler-user-agents"
import { ConfigProvider, Context, Effect, Layer, Metric, Random, Result, Tracer } from "effect"
import UserAgent from "user-agents"
import { Metrics } from "../../../src/Observability/Metrics.ts"
import { parseUserAgent } from "../../support/Devices.ts"
import { UserAgents } from "../../../src/Tools/UserAgent/Service.ts"
import { Slicer } from "../../../src/Tools/UserAgent/Slicer.ts"

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"

/** The service as the server builds it, with settings read from these environment variables. */
/** Each run counts in a registry of its own (`Metric.MetricRegistry`), where the counters below are read. */
const layer = (env: Record<string, string> = {}) =>
  UserAgents.layer.pipe(
    Layer.provide([Metrics.layer, Slicer.layer]),
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))),
    Layer.provideMerge(Layer.succeed(Metric.MetricRegistry, new Map()))
  )

const run = <A, E>(effect: Effect.Effect<A, E, UserAgents>, env?: Record<string, string>) =>
  Effect.runPromise(Effect.provide(effect, layer(env)))

/** The counter as /metrics shows it, found by its exported name. */
const counter = (name: string) =>
  Effect.map(Metric.snapshot, (snapshots) => {
    const found = snapshots.find((s) => s.id === name)
    const state = found?.state as { readonly count?: number } | undefined
    return Number(state?.count ?? 0)
  })

const counts = Effect.all({
  hits: counter("ua_parse_cache_hits_total"),
  misses: counter("ua_parse_cache_misses_total")
})

/**
 * Two parses at once, past a slice (Slicer.ts), so each waits a turn after looking in the cache: their answers, and
 * how many misses and hits the counters gained.
 */
const twoAtOnce = <A>(parse: (userAgents: UserAgents["Service"]) => Effect.Effect<A>) =>
  run(
    Effect.gen(function* () {
      const userAgents = yield* UserAgents
      // a first answer kept, which makes the cache
      yield* userAgents.parse(CHROME_WINDOWS)
      const before = yield* counts
      Bun.sleepSync(3)
      const answers = yield* Effect.all([parse(userAgents), parse(userAgents)], { concurrency: 2 })
      const after = yield* counts
      return { answers, misses: after.misses - before.misses, hits: after.hits - before.hits }
    })
  )

describe("UserAgents.parse", () => {
  test("a string that asks for no device (a desktop's, a bot's) is answered without building the device database", async () => {
    const SAMSUNG =
      "Mozilla/5.0 (Linux; Android 14; SM-A536B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/132.0.6834.163 Mobile Safari/537.36"
    const made: Array<string> = []
    const counting = Tracer.make({
      span: (options) => {
        made.push(options.name)
        return Tracer.nativeTracer.span(options)
      }
    })
    const builds = () => made.filter((name) => name === "DeviceDatabase.build").length
    const answers = await Effect.runPromise(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        const desktop = yield* userAgents.parse(CHROME_WINDOWS)
        const bot = yield* userAgents.parse("curl/8.4.0")
        const buildsBefore = builds()
        const phone = yield* userAgents.parse(SAMSUNG)
        return { desktop, bot, buildsBefore, phone }
      }).pipe(Effect.provide(Layer.merge(layer(), Layer.succeed(Tracer.Tracer, counting))))
    )
    expect(answers.buildsBefore).toBe(0)
    expect(answers.desktop).toEqual(parseUserAgent(CHROME_WINDOWS))
    expect(answers.bot).toEqual(parseUserAgent("curl/8.4.0"))
    // the first string that asks builds it, and gets the database's answer
    expect(builds()).toBe(1)
    expect(answers.phone).toEqual(parseUserAgent(SAMSUNG))
    expect(answers.phone.device).toMatchObject({ vendor: "Samsung", name: "Galaxy A53 5G" })
  })

  test("the cache counters are registered at 0 when the service is built, before any parse", async () => {
    const registered = await run(Effect.map(Metric.snapshot, (snapshots) => snapshots.map((s) => [s.id, s.state])))
    expect(registered).toContainEqual(["ua_parse_cache_hits_total", { count: 0, incremental: true }])
    expect(registered).toContainEqual(["ua_parse_cache_misses_total", { count: 0, incremental: true }])
  })

  test("a string of at most 512 characters is parsed at once; a longer one waits for the event loop's turn", async () => {
    // each parse comes after 3 ms of other work, so a slice (Slicer.ts) has run out whenever one is asked for
    const parsedAfterATurn = (userAgents: UserAgents["Service"], userAgent: string) =>
      Effect.gen(function* () {
        let turned = false
        setImmediate(() => (turned = true))
        Bun.sleepSync(3)
        yield* userAgents.parse(userAgent)
        return turned
      })
    const { long, short } = await run(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        yield* userAgents.parse(CHROME_WINDOWS)
        return {
          short: yield* parsedAfterATurn(
            userAgents,
            `${CHROME_WINDOWS} ${"x".repeat(512 - CHROME_WINDOWS.length - 1)}`
          ),
          long: yield* parsedAfterATurn(userAgents, `${CHROME_WINDOWS} ${"x".repeat(512 - CHROME_WINDOWS.length)}`)
        }
      })
    )
    expect(short).toBe(false)
    expect(long).toBe(true)
  })

  test("two requests at once for the same long uncached string parse it once", async () => {
    const long = `${CHROME_WINDOWS} ${"y".repeat(600)}`
    const { answers, misses, hits } = await twoAtOnce((userAgents) => userAgents.parse(long))
    expect(answers).toEqual([parseUserAgent(long), parseUserAgent(long)])
    expect({ misses, hits }).toEqual({ misses: 1, hits: 1 })
  })

  test("answers as the domain parser does", async () => {
    const info = await run(Effect.flatMap(UserAgents, (ua) => ua.parse(CHROME_WINDOWS)))
    expect(info).toEqual(parseUserAgent(CHROME_WINDOWS))
  })

  test("a repeated string is a cache hit, counted; the first is a miss", async () => {
    const ua = `${CHROME_WINDOWS} cache-test/${Date.now()}`
    const { after, before, first, second } = await run(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        const before = yield* counts
        const first = yield* userAgents.parse(ua)
        const second = yield* userAgents.parse(ua)
        return { before, after: yield* counts, first, second }
      })
    )
    expect(second).toEqual(first)
    expect(after.misses - before.misses).toBe(1)
    expect(after.hits - before.hits).toBe(1)
  })

  test("client hints bypass the cache and refine the answer", async () => {
    const hints = { "Sec-CH-UA-Platform": '"Windows"', "Sec-CH-UA-Platform-Version": '"15.0.0"' }
    const { after, before, hinted, plain } = await run(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        const plain = yield* userAgents.parse(CHROME_WINDOWS)
        const before = yield* counts
        const hinted = yield* userAgents.parse(CHROME_WINDOWS, hints)
        return { plain, hinted, before, after: yield* counts }
      })
    )
    expect(plain.os.version).toBe("10")
    expect(hinted.os.version).toBe("11")
    expect(after).toEqual(before)
  })

  test("UA_CACHE_SIZE=0 turns the cache off", async () => {
    const { after, before } = await run(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        const before = yield* counts
        yield* userAgents.parse(CHROME_WINDOWS)
        yield* userAgents.parse(CHROME_WINDOWS)
        return { before, after: yield* counts }
      }),
      { UA_CACHE_SIZE: "0" }
    )
    expect(after).toEqual(before)
  })

  test("an invalid UA_CACHE_SIZE stops the layer with a message naming it", async () => {
    const result = await Effect.runPromise(Effect.result(Effect.provide(UserAgents, layer({ UA_CACHE_SIZE: "lots" }))))
    if (Result.isSuccess(result)) throw new Error("expected a config error")
    expect(String(result.failure)).toContain("UA_CACHE_SIZE")
  })

  test("the cache is bounded: the oldest string is evicted, so parsing it again is a miss", async () => {
    const { after, before } = await run(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        yield* userAgents.parse("first/1.0")
        yield* userAgents.parse("second/1.0")
        yield* userAgents.parse("third/1.0")
        const before = yield* counts
        yield* userAgents.parse("first/1.0")
        return { before, after: yield* counts }
      }),
      { UA_CACHE_SIZE: "2" }
    )
    expect(after.misses - before.misses).toBe(1)
    expect(after.hits - before.hits).toBe(0)
  })
})

describe("UserAgents.parseMany", () => {
  /** ~3,000 distinct strings of browsers and crawlers, shuffled (desktops, phones and bots mixed in every batch). */
  const strings = (): Array<string> => {
    const all = new Set(crawlers.flatMap((c) => c.instances))
    UserAgent.random((entry: { userAgent: string }) => {
      all.add(entry.userAgent)
      return true
    })
    return Effect.runSync(Random.shuffle([...all]).pipe(Random.withSeed("parseMany")))
  }

  test("answers each string of a batch, in its order, as a string parsed alone; the first batch builds the device database", async () => {
    const LONG = `${CHROME_WINDOWS} ${"x".repeat(600)}`
    const all = strings()
    expect(all.length).toBeGreaterThan(2_500)
    // batches of the API's largest size, one holding a string twice and one past 512 characters
    const batches = Array.from({ length: Math.ceil(all.length / 100) }, (_, b) => all.slice(b * 100, (b + 1) * 100))
    batches[0] = [...batches[0]!.slice(0, 97), LONG, batches[0]![0]!, batches[0]![5]!]
    const answers = await run(Effect.flatMap(UserAgents, (userAgents) => Effect.forEach(batches, userAgents.parseMany)))
    answers.forEach((answer, b) => expect(answer).toEqual(batches[b]!.map((ua) => parseUserAgent(ua))))
  })

  test("a string the batch repeats is parsed once, a miss; a string parsed before is a hit", async () => {
    const seen = `${CHROME_WINDOWS} batch-seen/${Date.now()}`
    const fresh = `${CHROME_WINDOWS} batch-fresh/${Date.now()}`
    const { answers, before, after } = await run(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        yield* userAgents.parse(seen)
        const before = yield* counts
        const answers = yield* userAgents.parseMany([fresh, seen, fresh])
        return { answers, before, after: yield* counts }
      })
    )
    expect(answers).toEqual([parseUserAgent(fresh), parseUserAgent(seen), parseUserAgent(fresh)])
    expect(after.misses - before.misses).toBe(1)
    expect(after.hits - before.hits).toBe(1)
  })

  test("two batches at once that share an uncached string parse it once", async () => {
    const shared = `${CHROME_WINDOWS} shared/${Date.now()}`
    const { answers, misses, hits } = await twoAtOnce((userAgents) => userAgents.parseMany([shared]))
    expect(answers).toEqual([[parseUserAgent(shared)], [parseUserAgent(shared)]])
    expect({ misses, hits }).toEqual({ misses: 1, hits: 1 })
  })

  test("a batch of uncached strings waits for the event loop's turn", async () => {
    const turned = await run(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        let turned = false
        setImmediate(() => (turned = true))
        // past a slice (Slicer.ts) before the batch asks for one
        Bun.sleepSync(3)
        yield* userAgents.parseMany([`${CHROME_WINDOWS} turn/1`, `${CHROME_WINDOWS} turn/2`])
        return turned
      })
    )
    expect(turned).toBe(true)
  })
})

describe("UserAgents.generate", () => {
  test("seeded generation is deterministic and parses back", async () => {
    const [a, b] = await run(
      Effect.flatMap(UserAgents, (ua) =>
        Effect.all([
          ua.generate({ browser: "Firefox", os: "Linux", seed: 42 }),
          ua.generate({ browser: "Firefox", os: "Linux", seed: 42 })
        ])
      )
    )
    expect(a).toEqual(b)
    expect(a).toMatchObject({ browser: { name: "Firefox" }, os: { name: "Linux" }, device: { type: "Desktop" } })
    expect(parseUserAgent(a!.userAgent)).toEqual(a!)
  })

  test("a combination no browser has is an InvalidRequest naming the field", async () => {
    const result = await run(
      Effect.flatMap(UserAgents, (ua) => Effect.result(ua.generate({ browser: "Safari", os: "Windows" })))
    )
    if (Result.isSuccess(result)) throw new Error("expected an error")
    expect(result.failure._tag).toBe("InvalidRequest")
    expect(result.failure.details?.[0]?.path).toBe("browser")
    expect(result.failure.message).toContain("Safari")
  })

  test("unseeded generation draws from the Random service", async () => {
    const strings = await run(
      Effect.flatMap(UserAgents, (ua) =>
        Effect.all(Array.from({ length: 30 }, () => ua.generate({}))).pipe(
          Effect.map((all) => new Set(all.map((i) => i.userAgent)))
        )
      )
    )
    expect(strings.size).toBeGreaterThan(1)
  })
})

describe("UserAgents.generateMany", () => {
  const many = (options: Parameters<UserAgents["Service"]["generateMany"]>[0], count: number, from?: number) =>
    run(Effect.flatMap(UserAgents, (ua) => ua.generateMany(options, count, from)))

  test("count strings, each with the filters applied and parsing back to them", async () => {
    const items = await many({ browser: "Firefox", deviceType: "Mobile" }, 25)
    expect(items).toHaveLength(25)
    for (const item of items) {
      expect(item).toMatchObject({ browser: { name: "Firefox" }, device: { type: "Mobile" } })
      expect(parseUserAgent(item.userAgent)).toEqual(item)
    }
  })

  test("with a seed the whole list repeats; its first item is the single answer; pages make the same list", async () => {
    const options = { os: "Android", seed: 7 } as const
    const [a, b, single, firstPage, secondPage] = await run(
      Effect.flatMap(UserAgents, (ua) =>
        Effect.all([
          ua.generateMany(options, 20),
          ua.generateMany(options, 20),
          ua.generate(options),
          ua.generateMany(options, 8),
          ua.generateMany(options, 12, 8)
        ])
      )
    )
    expect(a).toEqual(b)
    expect(a![0]).toEqual(single)
    expect([...firstPage!, ...secondPage!]).toEqual([...a!])
    // the items are drawn apart, not one string repeated
    expect(new Set(a!.map((item) => item.userAgent)).size).toBeGreaterThan(5)
    const other = await many({ os: "Android", seed: 8 }, 20)
    expect(other).not.toEqual(a)
  })

  test("a count below 1 or not whole, a bad seed, or a combination no browser has is an InvalidRequest", async () => {
    const failure = (options: Parameters<UserAgents["Service"]["generateMany"]>[0], count: number) =>
      run(Effect.flatMap(UserAgents, (ua) => Effect.flip(ua.generateMany(options, count))))
    expect((await failure({}, 0)).details?.[0]?.path).toBe("count")
    expect((await failure({}, 1.5)).details?.[0]?.path).toBe("count")
    expect((await failure({ seed: 0.5 }, 2)).details?.[0]?.path).toBe("seed")
    expect((await failure({ browser: "Safari", os: "Windows" }, 2)).details?.[0]?.path).toBe("browser")
  })
})
