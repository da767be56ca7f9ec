/**
 * The user-agent service alone, without HTTP, under a workload's strings for 8 seconds, in one process: its peak RSS
 * (`VmHWM`). `bun bench/servicePeak.ts ua-cold|ua-mix|ua-batch [<checkout>/src]` (a382acc's layout is read too);
 * with `UA_CACHE_SIZE` set, that cache size. Each string is a copy of its own, as a request's body gives it; ua-mix's
 * 1 in 50 is a generate; ua-batch's bodies go to `parseMany`, 32 at once as the bench's connections send them. At the
 * end, the live heap after a full collection, to tell what is kept from garbage not yet collected. What the request path leaves between collections is not in it: set against `bun run bench`'s
 * peak RSS, it tells the service's part from the rest. Run each side several times, interleaved: ±10 MB.
 */
import { heapStats } from "bun:jsc"
import { ConfigProvider, Effect, Layer } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { Metrics } from "../src/Observability/Metrics.ts"
import { Slicer } from "../src/Tools/UserAgent/Slicer.ts"
import type { Workload } from "./workloads.ts"

// the strings of a workload, made in a child process: the `user-agents` module it reads would stay in this one's heap
if (process.argv[2] === "--strings") {
  const { requestLines }: typeof import("./workloads.ts") = await import("./workloads.ts")
  const lines = requestLines(process.argv[3] as Workload).map((line) => line.split("\t")[1]!)
  // a line a request: its one string, or a batch's strings as JSON
  const request = (body: string) => {
    const { userAgent, userAgents } = JSON.parse(body)
    return userAgents === undefined ? (userAgent ?? "") : JSON.stringify(userAgents)
  }
  await Bun.write(Bun.stdout, lines.map(request).join("\n"))
  process.exit(0)
}

const workload = process.argv[2] === "ua-mix" || process.argv[2] === "ua-batch" ? process.argv[2] : "ua-cold"
const strings = Bun.spawnSync([process.execPath, import.meta.path, "--strings", workload])
  .stdout.toString()
  .split("\n")
const src = resolve(process.argv[3] ?? join(import.meta.dir, "../src"))
// a382acc's layout: the service in UserAgents.ts
const flat = existsSync(join(src, "Tools/UserAgent/UserAgents.ts"))
// typed as this tree's modules; another revision's are expected to have the same shape
const { UserAgents }: typeof import("../src/Tools/UserAgent/Service.ts") = await import(
  join(src, flat ? "Tools/UserAgent/UserAgents.ts" : "Tools/UserAgent/Service.ts")
)
const { AppConfig }: typeof import("../src/Config.ts") = await import(join(src, "Config.ts"))

const env: Record<string, string> =
  process.env.UA_CACHE_SIZE === undefined ? {} : { UA_CACHE_SIZE: process.env.UA_CACHE_SIZE }
// whatever the tree's service needs (this tree's metrics: services are found by their key)
const needs = Layer.mergeAll(
  AppConfig.fromEnv(env),
  ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)),
  Metrics.layer,
  // a tree that takes its Slicer from the composition (a service's, as the server has it)
  Slicer.layer
)
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024
// a turn of the event loop every so many strings, as requests arriving give the collector
const TURN = 500
const SECONDS = 8

type Service = import("../src/Tools/UserAgent/Service.ts").UserAgents["Service"]

/** One request's work: a batch of copies, 32 at once, or one string (ua-mix's 1 in 50 a generate). */
const request = (userAgents: Service, n: number) => {
  if (workload === "ua-batch") {
    const batches = Array.from(
      { length: 32 },
      (_, i) => JSON.parse(strings[(n + i) % strings.length]!) as Array<string>
    )
    return Effect.forEach(batches, (batch) => userAgents.parseMany(batch.map((s) => Buffer.from(s).toString())), {
      concurrency: "unbounded",
      discard: true
    })
  }
  const userAgent = Buffer.from(strings[n % strings.length]!).toString()
  if (workload === "ua-mix" && n % 50 === 0) return Effect.asVoid(userAgents.generate({}))
  return Effect.asVoid(userAgents.parse(userAgent))
}

const program = Effect.gen(function* () {
  const userAgents = yield* UserAgents
  const start = performance.now()
  let sent = 0
  while (performance.now() - start < SECONDS * 1000) {
    // 32 batches between turns, as requests arriving at once
    for (let i = 0; i < (workload === "ua-batch" ? 1 : TURN); i++) {
      yield* request(userAgents, sent)
      sent += workload === "ua-batch" ? 32 : 1
    }
    yield* Effect.promise(() => new Promise<void>((done) => setImmediate(done)))
  }
  const peak = peakMb()
  Bun.gc(true)
  const live = heapStats().heapSize / 1024 / 1024
  const what = workload === "ua-batch" ? "batches" : "strings"
  console.log(
    `${src} ${workload}: ${sent.toLocaleString("en")} ${what}, peak RSS ${peak.toFixed(0)} MB, ` +
      `live heap after a full collection ${live.toFixed(1)} MB`
  )
})

await Effect.runPromise(program.pipe(Effect.provide(UserAgents.layer.pipe(Layer.provide(needs)))))
