/**
 * Where the memory goes, stage by stage, in one process: `bun bench/memory.ts`. The `UserAgents` service is built
 * with the default settings (a 10,000-entry parse cache) and driven as traffic would: the cache filled with distinct
 * strings, then the generate data set loaded. After each stage a full collection, then the live JS heap (objects
 * and the memory they own outside it) and the process's RSS. The cache's size is the live heap it adds.
 *
 * RSS is what the kernel counts: Bun's own code (about 35-40 MB of it resident), the JS heap, freed memory the
 * allocators keep for later, buffers. Peak RSS under load (`bun run bench`) is higher than any figure here: between
 * collections the garbage of every request is held too.
 */
import { heapStats } from "bun:jsc"
import { Effect, Layer } from "effect"
import { Metrics } from "../src/Observability/Metrics.ts"
import { UserAgents } from "../src/Tools/UserAgent/Service.ts"
import { Slicer } from "../src/Tools/UserAgent/Slicer.ts"

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1).padStart(6)
let previousLive = 0

const measure = (name: string) => {
  Bun.gc(true)
  // JSC's heap size counts the memory objects own outside the heap (`extraMemorySize`) already
  const live = heapStats().heapSize
  const rss = process.memoryUsage().rss
  console.log(`${name.padEnd(44)} live heap ${mb(live)} MB (${mb(live - previousLive)})   RSS ${mb(rss)} MB`)
  previousLive = live
}

// in a later turn of the event loop: what was held weakly in this one (the device file's bytes) is kept until it ends
const stage = (name: string) =>
  Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve))).pipe(Effect.map(() => measure(name)))

const CACHE = 10_000
/** Distinct real-format strings: each a cache miss that stays in the cache. */
const distinct = (i: number) =>
  `Mozilla/5.0 (Linux; Android 14; SM-S9${String(i % 100).padStart(2, "0")}B) AppleWebKit/537.36 ` +
  `(KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${Math.floor(i / 40)}.0 Mobile Safari/537.36`

measure("start (runtime, modules of this script)")
const program = Effect.gen(function* () {
  const userAgents = yield* UserAgents
  yield* userAgents.parse(distinct(0))
  yield* stage("service built, parser used once")
  for (let i = 1; i < CACHE; i++) yield* userAgents.parse(distinct(i))
  yield* stage(`parse cache full (${CACHE.toLocaleString("en")} entries)`)
  yield* userAgents.generate({})
  yield* stage("generate data set loaded (pools kept)")
})

await Effect.runPromise(
  program.pipe(Effect.provide(UserAgents.layer.pipe(Layer.provide([Metrics.layer, Slicer.layer]))))
)
