/**
 * `bun bench/ab.ts REV [wage|parse] [trials]`: this tree's service against the one at git revision REV, both
 * started in this process (REV's `src/` is extracted into bench/results/ab-REV/ so it resolves the same
 * node_modules) and driven in turn through Bun's `server.fetch()`, trial by trial in alternating order: no sockets
 * and no client process, so most of the machine's noise cancels out. Prints the CPU time a request took (min, p25,
 * median over the trials). Measures the application and its server adapter, not Bun's HTTP parsing and writing.
 * The request log goes to stdout: send it to /dev/null; results go to stderr. See bench/README.md.
 */
import { mkdirSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { ManagedRuntime } from "effect"

const ROOT = resolve(import.meta.dir, "..")
const KEY = "bench-key-0123456789abcdef0123456789"
const [rev, kindArg, trialsArg] = process.argv.slice(2)
if (rev === undefined) {
  process.stderr.write("Usage: bun bench/ab.ts REV [wage|parse] [trials]\n")
  process.exit(2)
}
const kind = kindArg === "parse" ? "parse" : "wage"
const trials = Number(trialsArg ?? 30)
const PER_TRIAL = 2_000
const CONNECTIONS = 32

const extracted = join(ROOT, "bench", "results", `ab-${rev.replace(/[^\w.-]/g, "_")}`)
rmSync(extracted, { recursive: true, force: true })
mkdirSync(extracted, { recursive: true })
const archive = Bun.spawnSync(["sh", "-c", `git archive "$0" src | tar -x -C "$1"`, rev, extracted], { cwd: ROOT })
if (archive.exitCode !== 0) {
  process.stderr.write(`could not extract ${rev}: ${archive.stderr.toString()}`)
  process.exit(2)
}

// Every Bun.serve made here, to drive it with server.fetch.
const servers: Array<ReturnType<typeof Bun.serve>> = []
const serve = Bun.serve
Bun.serve = ((options: Parameters<typeof Bun.serve>[0]) => {
  const server = serve(options)
  servers.push(server)
  return server
}) as typeof Bun.serve

process.env.API_KEYS = KEY
process.env.RATE_LIMIT_PER_MINUTE = "1000000000"
const start = async (src: string, port: number) => {
  process.env.PORT = String(port)
  const { ServerLive } = await import(join(src, "Server.ts"))
  await ManagedRuntime.make(ServerLive).runtime()
  return servers[servers.length - 1]!
}
type Served = Awaited<ReturnType<typeof start>>
const targets: Array<readonly [string, Served]> = [
  [rev, await start(join(extracted, "src"), 0)],
  ["this tree", await start(join(ROOT, "src"), 0)]
]

const body =
  kind === "wage"
    ? JSON.stringify({ hourlyWage: 25 })
    : JSON.stringify({
        operation: "parse",
        userAgent:
          "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
      })
const url = `http://localhost/v1/tools/${kind === "wage" ? "wage-estimator" : "user-agent-parser"}`
const headers = {
  authorization: `Bearer ${KEY}`,
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(body))
}

const load = async (server: Served, requests: number) => {
  let sent = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent++ < requests) {
        const response = (await server.fetch(new Request(url, { method: "POST", headers, body }))) as Response
        if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`)
        await response.arrayBuffer()
      }
    })
  )
}

for (const [, server] of targets) await load(server, 8_000) // warm-up: the JIT settles
const cpu = new Map<string, Array<number>>()
for (let trial = 0; trial < trials; trial++) {
  for (const [name, server] of trial % 2 === 0 ? targets : [...targets].reverse()) {
    const before = process.cpuUsage()
    await load(server, PER_TRIAL)
    const used = process.cpuUsage(before)
    cpu.set(name, [...(cpu.get(name) ?? []), (used.user + used.system) / PER_TRIAL])
  }
}

const at = (values: Array<number>, q: number) => values[Math.floor(q * (values.length - 1))]!.toFixed(1)
process.stderr.write(`${kind}: ${trials} trials of ${PER_TRIAL} requests each, ${CONNECTIONS} at a time, alternating\n`)
for (const [name, values] of cpu) {
  values.sort((a, b) => a - b)
  process.stderr.write(
    `${name.padEnd(12)} CPU µs/request min ${at(values, 0)} p25 ${at(values, 0.25)} median ${at(values, 0.5)}\n`
  )
}
process.exit(0)
