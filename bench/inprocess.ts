/**
 * The harness of `bench/ab.ts`: services built in this process as web handlers (`HttpRouter.toWebHandler`: a web
 * `Request` in, a `Response` out; no sockets, no client process), driven trial by trial in alternating order, so
 * noise from other work on the machine falls on every target alike. Measures the application and the framework's
 * request handling, not Bun's HTTP parsing and writing.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { ConfigProvider, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { ToolsApi } from "../src/Api.ts"
import { ApiRoutes } from "../src/Http/Routes.ts"
import { requestLines } from "./workloads.ts"

export const KEY = "bench-key-0123456789abcdef0123456789"
export const PER_TRIAL = 2_000
export const CONNECTIONS = 32

/** A service in process: what `Bun.serve`'s `fetch` is given. */
export type Handler = (request: Request) => Promise<Response>
/**
 * wage, a cached parse, cold (parses of 20,000 distinct strings, cycled) or mix (parses drawn as traffic draws them, 1
 * in 50 a generate): bench/workloads.ts's ua-cold and ua-mix.
 */
export type Kind = "wage" | "parse" | "cold" | "mix"

const bodiesOf = (workload: "ua-cold" | "ua-mix") =>
  requestLines(workload).map((line) => line.slice(line.indexOf("\t") + 1))
const cycles = { cold: bodiesOf("ua-cold"), mix: bodiesOf("ua-mix") }
/** Where each target is in its cycle: each walks all of it (cold: every parse is a miss for each). */
const cycleNext = new WeakMap<Handler, number>()

const bodies: Record<Exclude<Kind, "cold" | "mix">, string> = {
  wage: JSON.stringify({ hourlyWage: 25 }),
  parse: JSON.stringify({
    operation: "parse",
    userAgent:
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
  })
}

/** As `bun run bench` runs the service: the bench key, and a rate limit high enough never to bite. */
const env = { API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: "1000000000" }

/**
 * The log and the OTLP exporters as the server has them, with the routes of the API served (a revision from before
 * OTLP export: its logger alone, and this tree's routes, which its application, naming its own, does not read).
 */
const observability = async (src: string) => {
  const server: typeof import("../src/Platform/Server.ts") = await import(join(src, "Platform", "Server.ts"))
  if ("ObservabilityServed" in server) return server.ObservabilityServed
  const folder = existsSync(join(src, "Observability", "Logger.ts")) ? "Observability" : "Platform"
  const { LoggerLive }: typeof import("../src/Observability/Logger.ts") = await import(join(src, folder, "Logger.ts"))
  return LoggerLive.pipe(Layer.provideMerge(ApiRoutes.layer(ToolsApi)))
}

/**
 * A tree's application as a web handler, its modules imported from `src` (`effect` is this tree's, whichever tree):
 * the services and the logger are merged into the handler's context, as the server's running program provides
 * them to `Bun.serve`'s handler.
 */
export const application = async (src: string, extraEnv: Record<string, string> = {}): Promise<Handler> => {
  // typed as this tree's modules; another revision's are expected to have the same shape
  const { HttpLive }: typeof import("../src/Http.ts") = await import(join(src, "Http.ts"))
  const { ServicesLive }: typeof import("../src/Platform/Server.ts") = await import(join(src, "Platform", "Server.ts"))
  const { AppConfig }: typeof import("../src/Config.ts") = await import(join(src, "Config.ts"))
  const layer = HttpLive.pipe(
    Layer.provide(HttpServer.layerServices),
    Layer.provideMerge(Layer.mergeAll(ServicesLive, await observability(src))),
    Layer.provideMerge(AppConfig.fromEnv({ ...env, ...extraEnv })),
    // what a layer reads through `Config` itself (this tree's parse cache), from the same variables
    Layer.provideMerge(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ ...env, ...extraEnv })))
  )
  const { handler } = HttpRouter.toWebHandler(layer, { disableLogger: true })
  return (request) => handler(request)
}

/** `requests` requests of `kind`, CONNECTIONS at a time; anything but a 200 stops the run. */
export const load = async (handler: Handler, kind: Kind, requests: number): Promise<void> => {
  const url = `http://localhost/v1/tools/${kind === "wage" ? "wage-estimator" : "user-agent-parser"}`
  // With Content-Length, as wrk and browsers send a small body (without, the body is read as a stream).
  const request = (body: string) =>
    new Request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${KEY}`,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body))
      },
      body
    })
  const next =
    kind === "cold" || kind === "mix"
      ? () => {
          const cycle = cycles[kind]
          const at = cycleNext.get(handler) ?? 0
          cycleNext.set(handler, at + 1)
          return cycle[at % cycle.length]!
        }
      : () => bodies[kind]
  let sent = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent++ < requests) {
        const response = await handler(request(next()))
        if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`)
        await response.arrayBuffer()
        // a turn of the event loop, as a server's next request arrives in one: the log is written between turns
        await new Promise((resolve) => setImmediate(resolve))
      }
    })
  )
}

/** One trial: the CPU µs a request took over PER_TRIAL requests, from a collected heap. */
export const measure = async (handler: Handler, kind: Kind): Promise<number> => {
  // from a collected heap: another target's garbage is not collected in this one's time
  Bun.gc(true)
  const before = process.cpuUsage()
  await load(handler, kind, PER_TRIAL)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / PER_TRIAL
}

/** CPU time a request took on each target, one value a trial; targets alternate their order each trial. */
export const alternate = async (
  targets: ReadonlyArray<readonly [string, Handler]>,
  kind: Kind,
  trials: number
): Promise<Map<string, Array<number>>> => {
  const cpu = new Map<string, Array<number>>()
  for (let trial = 0; trial < trials; trial++) {
    for (const [name, handler] of trial % 2 === 0 ? targets : [...targets].reverse()) {
      cpu.set(name, [...(cpu.get(name) ?? []), await measure(handler, kind)])
    }
  }
  return cpu
}

/** Prints min, p25 and median of each target's trials on stderr, with `extra(name)` after each line. */
export const report = (
  kind: Kind,
  trials: number,
  cpu: Map<string, Array<number>>,
  extra: (name: string) => string = () => ""
): void => {
  const at = (values: Array<number>, q: number) =>
    values[Math.floor(q * (values.length - 1))]!.toFixed(values === ratios ? 3 : 1)
  const width = Math.max(...[...cpu.keys()].map((name) => name.length)) + 2
  process.stderr.write(
    `${kind}: ${trials} trials of ${PER_TRIAL} requests each, ${CONNECTIONS} at a time, alternating\n`
  )
  // two targets: each trial's pair run back to back, so their ratio is steadier than either figure
  const [first, second] = [...cpu.values()]
  const ratios =
    cpu.size === 2 && first !== undefined && second !== undefined
      ? first.map((value, i) => second[i]! / value).sort((a, b) => a - b)
      : []
  for (const [name, values] of cpu) {
    values.sort((a, b) => a - b)
    process.stderr.write(
      `${name.padEnd(width)}CPU µs/request min ${at(values, 0)} p25 ${at(values, 0.25)} median ${at(values, 0.5)}` +
        `${extra(name)}\n`
    )
  }
  if (ratios.length > 0) {
    const [a, b] = [...cpu.keys()]
    process.stderr.write(
      `${b}/${a} CPU per request, trial by trial: p25 ${at(ratios, 0.25)} median ${at(ratios, 0.5)} p75 ${at(ratios, 0.75)}\n`
    )
  }
}
