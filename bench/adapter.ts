/**
 * `bun bench/adapter.ts [wage|parse] [trials]`: the service's own Bun server (src/Http/BunServer.ts) against
 * @effect/platform-bun's (`BunHttpServer.layer`), serving the same application in one process, driven through
 * `server.fetch()` in alternating trials (`bench/inprocess.ts`). Prints the CPU time a request took (min, p25,
 * median over the trials) and the Effect run-loop operations a request took with each, counted by wrapping the
 * fiber runtime's opcode handlers. The
 * service's configuration otherwise (its JSON request log goes to stdout: send it to /dev/null; results go to
 * stderr). See bench/README.md.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as BunHttpServer from "@effect/platform-bun/BunHttpServer"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { edge, HttpLive } from "../src/Http.ts"
import * as BunServer from "../src/Http/BunServer.ts"
import { LoggerLive, ServicesLive } from "../src/Server.ts"
import { Drain } from "../src/Services/Drain.ts"
import { alternate, captureServers, KEY, type Kind, load, report } from "./inprocess.ts"

const kind: Kind = process.argv[2] === "parse" ? "parse" : "wage"
const trials = Number(process.argv[3] ?? 30)
const servers = captureServers()

// Run-loop operations: each opcode handler of the fiber runtime, counted.
let operations = 0
const runtimePrototype = Object.getPrototypeOf(Effect.runFork(Effect.void)) as Record<string, unknown>
for (const name of Object.getOwnPropertyNames(runtimePrototype)) {
  const handler = runtimePrototype[name]
  if (!/^[A-Z]/.test(name) || typeof handler !== "function" || name === "FiberRuntime") continue
  runtimePrototype[name] = function (this: unknown, op: unknown) {
    operations++
    return handler.call(this, op)
  }
}

const config = ConfigProvider.fromMap(
  new Map([
    ["API_KEYS", KEY],
    ["RATE_LIMIT_PER_MINUTE", "1000000000"]
  ])
)
const options = { port: 0, hostname: "127.0.0.1", reusePort: false, maxRequestBodySize: 1 << 30, idleTimeout: 30 }

const start = async (server: Layer.Layer<never, never, never>) => {
  const drain = Effect.runSync(Effect.provide(Drain, Drain.Default))
  const layer = HttpApiBuilder.serve(edge(drain)).pipe(
    Layer.provide(HttpLive),
    Layer.provide(server),
    Layer.provide(ServicesLive),
    Layer.provide(LoggerLive),
    Layer.provide(Layer.setConfigProvider(config))
  )
  await ManagedRuntime.make(layer as Layer.Layer<never>).runtime()
  return servers[servers.length - 1]!
}

const targets = [
  ["@effect/platform-bun", await start(BunHttpServer.layer(options) as never)],
  ["src/Http/BunServer.ts", await start(BunServer.layer(options) as never)]
] as const

const ops = new Map<string, number>()
for (const [name, server] of targets) {
  await load(server, kind, 8_000) // warm-up: the JIT settles
  operations = 0
  await load(server, kind, 1_000)
  ops.set(name, operations / 1_000)
}
report(
  kind,
  trials,
  await alternate(targets, kind, trials),
  (name) => `   run-loop operations/request ${ops.get(name)!.toFixed(0)}`
)
process.exit(0)
