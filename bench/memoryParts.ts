/**
 * What each part of the user-agent service holds after realistic traffic, in one process, for this tree or another
 * checkout's `src` (`bun bench/memoryParts.ts [<checkout>/src]`; a382acc's layout is read too):
 *
 * - the app's modules (`Http.ts` and `Platform/Server.ts` imported: all the server's code);
 * - the device data after the first parse (its index, the first brand's models, and whatever of the file is kept);
 * - the brands' models after ua-mix's and then ua-cold's strings (bench/workloads.ts), parsed with the cache off;
 * - the generate pools;
 * - the parse cache with 10,000 of ua-cold's answers, each string a copy of its own as a request's body gives it,
 *   then after each was asked for again.
 *
 * After each stage, in a later turn of the event loop, a full collection, then the live heap: JSC's `heapSize`, which counts the memory objects own
 * outside the heap (buffers, typed arrays) too. Compiled patterns and code are outside it: RSS is printed beside.
 */
import { heapStats } from "bun:jsc"
import { ConfigProvider, Effect, Layer } from "effect"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { Metrics } from "../src/Observability/Metrics.ts"
import { Slicer } from "../src/Tools/UserAgent/Slicer.ts"
import type { UserAgentInfo } from "../src/Tools/UserAgent/Schemas.ts"
import type { Workload } from "./workloads.ts"

// the strings of a workload, made in a child process: the `user-agents` module it reads would stay in this one's heap
if (process.argv[2] === "--strings") {
  const { requestLines }: typeof import("./workloads.ts") = await import("./workloads.ts")
  const bodies = requestLines(process.argv[3] as Workload).map((line) => JSON.parse(line.split("\t")[1]!))
  await Bun.write(
    Bun.stdout,
    bodies.flatMap((body) => (body.userAgent === undefined ? [] : [body.userAgent])).join("\n")
  )
  process.exit(0)
}
const stringsOf = (workload: Workload): Array<string> =>
  Bun.spawnSync([process.execPath, import.meta.path, "--strings", workload])
    .stdout.toString()
    .split("\n")
const [mix, cold] = [stringsOf("ua-mix"), stringsOf("ua-cold")]

const src = resolve(process.argv[2] ?? join(import.meta.dir, "../src"))
// a382acc's layout: the service in UserAgents.ts, the cache in ParseCache.ts
const flat = existsSync(join(src, "Tools/UserAgent/UserAgents.ts"))

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(2).padStart(6)
let previous = 0
const measure = (name: string) => {
  Bun.gc(true)
  const live = heapStats().heapSize
  console.log(`${name.padEnd(52)} ${mb(live - previous)} MB   (live ${mb(live)}, RSS ${mb(process.memoryUsage().rss)})`)
  previous = live
}

// in a later turn of the event loop: what was held weakly in this one is kept until it ends
const stage = (name: string) =>
  Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve))).pipe(Effect.map(() => measure(name)))

measure("runtime, this script and the workloads' strings")
// typed as this tree's modules; another revision's are expected to have the same shape
const { UserAgents }: typeof import("../src/Tools/UserAgent/Service.ts") = await import(
  join(src, flat ? "Tools/UserAgent/UserAgents.ts" : "Tools/UserAgent/Service.ts")
)
const { makeParseCache }: typeof import("../src/Tools/UserAgent/parse/Cache.ts") = await import(
  join(src, flat ? "Tools/UserAgent/ParseCache.ts" : "Tools/UserAgent/parse/Cache.ts")
)
const { AppConfig }: typeof import("../src/Config.ts") = await import(join(src, "Config.ts"))
await import(join(src, "Http.ts"))
await import(join(src, "Platform/Server.ts"))
measure("the app's modules")

const env = { UA_CACHE_SIZE: "0" }
// whatever the tree's service needs: its settings, or the variables it reads itself, and its metrics (this tree's,
// imported at start by either: services are found by their key)
const needs = Layer.mergeAll(
  AppConfig.fromEnv(env),
  ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)),
  Metrics.layer,
  // a tree that takes its Slicer from the composition (a service's, as the server has it)
  Slicer.layer
)
const CACHED = 10_000

const program = Effect.gen(function* () {
  const userAgents = yield* UserAgents
  yield* stage("the service built, the parse cache off")
  yield* userAgents.parse(mix[0]!)
  yield* stage("device data after the first parse")
  for (const userAgent of mix) yield* userAgents.parse(userAgent)
  yield* stage(`brands' models after ua-mix (${new Set(mix).size} distinct strings)`)
  for (const userAgent of cold) yield* userAgents.parse(userAgent)
  yield* stage(`brands' models after ua-cold (${cold.length.toLocaleString("en")} more)`)
  yield* userAgents.generate({})
  yield* stage("generate pools")
  // parsed first and kept as JSON, so that the cache's stage counts neither what parsing leaves (the compiled
  // patterns kept) nor the answers' objects held elsewhere; its strings are new, as a request's body gives them
  const answers: Array<string> = []
  for (const userAgent of cold.slice(0, CACHED)) answers.push(JSON.stringify(yield* userAgents.parse(userAgent)))
  yield* stage(`${CACHED.toLocaleString("en")} of ua-cold's answers parsed, as JSON`)
  const cache = makeParseCache(CACHED)
  for (const answer of answers) {
    const info: UserAgentInfo = JSON.parse(answer)
    cache.set(info.userAgent, info)
  }
  yield* stage(`parse cache: the same ${CACHED.toLocaleString("en")}`)
  for (const userAgent of cold.slice(0, CACHED)) cache.get(userAgent)
  yield* stage("parse cache, each asked for again")
})

await Effect.runPromise(program.pipe(Effect.provide(UserAgents.layer.pipe(Layer.provide(needs)))))
