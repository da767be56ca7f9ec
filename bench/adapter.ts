/**
 * `bun bench/adapter.ts [wage|parse] [trials]`: the service's own Bun server (src/Http/BunServer.ts) against
 * @effect/platform-bun's (`BunHttpServer.layer`), serving the same application in one process, driven through
 * Bun's `server.fetch()` (no sockets, so the client costs nothing and the machine's noise cancels out), trial by
 * trial in alternating order. Prints the CPU time a request took (min, p25, median over the trials) and the Effect
 * run-loop operations a request took with each, counted by wrapping the fiber runtime's opcode handlers. The
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

const KEY = "bench-key-0123456789abcdef0123456789"
const kind = process.argv[2] === "parse" ? "parse" : "wage"
const trials = Number(process.argv[3] ?? 30)
const PER_TRIAL = 2_000
const CONNECTIONS = 32

// Every `Bun.serve` made here, to drive it with `server.fetch`.
const servers: Array<ReturnType<typeof Bun.serve>> = []
const serve = Bun.serve
Bun.serve = ((options: Parameters<typeof Bun.serve>[0]) => {
  const server = serve(options)
  servers.push(server)
  return server
}) as typeof Bun.serve

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

const body =
  kind === "wage"
    ? JSON.stringify({ hourlyWage: 25 })
    : JSON.stringify({
        operation: "parse",
        userAgent:
          "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
      })
const url = `http://localhost/v1/tools/${kind === "wage" ? "wage-estimator" : "user-agent-parser"}`
// With Content-Length, as wrk and browsers send a small body (without, the body is read as a stream).
const headers = {
  authorization: `Bearer ${KEY}`,
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(body))
}
const one = (server: (typeof targets)[number][1]) =>
  server.fetch(new Request(url, { method: "POST", headers, body })) as Promise<Response>

const load = async (server: (typeof targets)[number][1], requests: number) => {
  let sent = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent++ < requests) {
        const response = await one(server)
        if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`)
        await response.arrayBuffer()
      }
    })
  )
}

const cpu: Record<string, Array<number>> = {}
const ops: Record<string, number> = {}
for (const [name, server] of targets) {
  await load(server, 8_000) // warm-up: the JIT settles
  operations = 0
  await load(server, 1_000)
  ops[name] = operations / 1_000
}
for (let trial = 0; trial < trials; trial++) {
  for (const [name, server] of trial % 2 === 0 ? targets : [...targets].reverse()) {
    const before = process.cpuUsage()
    await load(server, PER_TRIAL)
    const used = process.cpuUsage(before)
    ;(cpu[name] ??= []).push((used.user + used.system) / PER_TRIAL)
  }
}

const at = (values: Array<number>, q: number) => values[Math.floor(q * (values.length - 1))]!.toFixed(1)
console.error(`${kind}: ${trials} trials of ${PER_TRIAL} requests each, ${CONNECTIONS} at a time, alternating`)
for (const [name, values] of Object.entries(cpu)) {
  values.sort((a, b) => a - b)
  console.error(
    `${name.padEnd(24)} CPU µs/request min ${at(values, 0)} p25 ${at(values, 0.25)} median ${at(values, 0.5)}` +
      `   run-loop operations/request ${ops[name]!.toFixed(0)}`
  )
}
process.exit(0)
