/** A seed is used whole: integers that agree in their low 32 bits are different seeds. */
import { afterAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Random } from "effect"
import * as fc from "fast-check"
import { Metrics } from "../../../src/Observability/Metrics.ts"
import { seeded } from "../../../src/Tools/UserAgent/generate/Pools.ts"
import { UserAgents } from "../../../src/Tools/UserAgent/Service.ts"
import { Slicer } from "../../../src/Tools/UserAgent/Slicer.ts"
import { json, makeTestApp, UA_PATH } from "../../support/TestApp.ts"

const draws = (seed: number) => Effect.runSync(seeded(Effect.all([Random.next, Random.next, Random.next]), seed))
const TWO_32 = 2 ** 32

describe("seeded", () => {
  test("property: seeds 2^32 apart (or of opposite sign) draw different numbers", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: -2_000_000, max: 2_000_000 }), (seed, k) => {
        const other = seed + k * TWO_32
        fc.pre(k !== 0 && Number.isSafeInteger(other))
        expect(draws(other)).not.toEqual(draws(seed))
      })
    )
    fc.assert(
      fc.property(fc.integer({ min: 1, max: TWO_32 - 1 }), (seed) => {
        expect(draws(-seed)).not.toEqual(draws(seed))
        expect(draws(TWO_32 - seed)).not.toEqual(draws(-seed))
      })
    )
  })

  test("property: the same seed draws the same numbers; seeds below 2^32 draw what they always did", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (seed) => {
        expect(draws(seed)).toEqual(draws(seed))
      })
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: TWO_32 - 1 }), (seed) => {
        expect(draws(seed)).toEqual(
          Effect.runSync(Random.withSeed(Effect.all([Random.next, Random.next, Random.next]), seed))
        )
      })
    )
  })
})

describe("generate with a seed beyond 2^32", () => {
  const app = makeTestApp({ perMinute: 1_000_000 })
  afterAll(() => app.dispose())
  const generated = async (seed: number) => {
    const response = await app.post(UA_PATH, { operation: "generate", seed })
    expect(response.status).toBe(200)
    return (await json(response)).data.userAgent as string
  }

  test("42 and 4294967338 (42 + 2^32) give different strings; each gives its own again", async () => {
    expect(await generated(4294967338)).not.toBe(await generated(42))
    expect(await generated(4294967338)).toBe(await generated(4294967338))
  })
})

describe("a list with a seed (the command line's generate)", () => {
  test("its first item is the single answer of the whole seed: 4294967338 is not 42", async () => {
    const [single, first, other] = await Effect.runPromise(
      Effect.gen(function* () {
        const userAgents = yield* UserAgents
        return [
          (yield* userAgents.generate({ seed: 4294967338 })).userAgent,
          (yield* userAgents.generateMany({ seed: 4294967338 }, 3))[0]?.userAgent,
          (yield* userAgents.generateMany({ seed: 42 }, 3))[0]?.userAgent
        ]
      }).pipe(Effect.provide(UserAgents.layer.pipe(Layer.provide([Metrics.layer, Slicer.layer]))))
    )
    expect(first).toBe(single)
    expect(first).not.toBe(other)
  })
})
