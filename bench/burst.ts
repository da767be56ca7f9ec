/**
 * Tail latency of well-behaved keys while one key floods: `bun bench/burst.ts [--binary PATH] [--rounds N]`.
 *
 * Each target (the service and bench/baseline.ts) is started fresh with 51 keys and a limit of 1,200 a minute. A
 * paced client in this process sends wage requests for 50 keys at a fixed 500 a second in all (10 a second a key:
 * never limited), open loop: a request's latency counts from when it was due, so a stalled server is not hidden by
 * requests it kept the client from sending. It runs twice: "quiet", alone; "burst", while wrk floods the 51st key
 * with 32 connections, which past its first 1,200 requests get only 429s. Printed per target and phase: the paced
 * requests' p50, p99 and max, and the flood's answers a second. The question is whether a limited key's flood,
 * 429s included, raises the others' p99 more on the service than on the baseline.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { count, main, parseFlags } from "./lib/args.ts"
import { BENCH, KEY, ROOT, type Server, startServer } from "./lib/server.ts"
import { runWrk, ensureWrk } from "./lib/wrk.ts"

const usage = "usage: bun bench/burst.ts [--binary PATH] [--rounds N] [--seconds S]\n"
const PACED_KEYS = Array.from({ length: 50 }, (_, i) => `paced-key-${String(i).padStart(2, "0")}-0123456789abcdef`)
const PER_SECOND = 500
const WAGE = JSON.stringify({ hourlyWage: 25 })
const PATH = "/v1/tools/wage-estimator"

type Target = "service" | "baseline"
type Phase = "quiet" | "burst"

const start = (target: Target, binary: string | undefined): Promise<Server> =>
  startServer({
    name: target,
    command:
      target === "baseline"
        ? [process.execPath, join(BENCH, "baseline.ts")]
        : binary !== undefined
          ? [binary]
          : [process.execPath, join(ROOT, "src/main.ts")],
    env: { API_KEYS: [KEY, ...PACED_KEYS].join(","), RATE_LIMIT_PER_MINUTE: "1200" }
  })

/** Paced requests for `seconds`; the latencies (ms) of those due after `skip` seconds, and any non-200 count. */
const paced = async (port: number, seconds: number, skip: number) => {
  const url = `http://127.0.0.1:${port}${PATH}`
  const latencies: Array<number> = []
  const pending: Array<Promise<void>> = []
  let failures = 0
  const begin = performance.now()
  for (let i = 0; i < seconds * PER_SECOND; i++) {
    const due = begin + (i * 1000) / PER_SECOND
    const wait = due - performance.now()
    if (wait > 0) await Bun.sleep(wait)
    const key = PACED_KEYS[i % PACED_KEYS.length]!
    // from when it was due, or from when it went out if the timer fired a little early
    const from = Math.max(due, performance.now())
    const request = fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: WAGE
    }).then(async (response) => {
      await response.arrayBuffer()
      if (response.status !== 200) failures++
      else if (due - begin >= skip * 1000) latencies.push(performance.now() - from)
    })
    pending.push(request)
  }
  await Promise.all(pending)
  return { latencies: latencies.sort((a, b) => a - b), failures }
}

const at = (sorted: ReadonlyArray<number>, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

const measure = async (wrk: string, file: string, target: Target, phase: Phase, seconds: number, binary?: string) => {
  const server = await start(target, binary)
  try {
    const flood =
      phase === "burst" ? runWrk(wrk, { port: server.port, file, seconds: seconds + 1, connections: 32 }) : undefined
    // the first 2 s warm the JIT and, in a burst, spend the flood key's allowance: not counted
    const result = await paced(server.port, seconds, 2)
    const floodResult = await flood
    return {
      ...result,
      floodPerSecond: floodResult === undefined ? 0 : floodResult.requests / (floodResult.durationUs / 1e6),
      floodRejected: floodResult?.statusErrors ?? 0
    }
  } finally {
    await server.stop()
  }
}

await main(async () => {
  let binary: string | undefined
  let rounds = 1
  let seconds = 12
  parseFlags(process.argv.slice(2), usage, {
    "--binary": (value) => (binary = value()),
    "--rounds": (value, flag) => (rounds = count(flag, value())),
    "--seconds": (value, flag) => (seconds = count(flag, value()))
  })
  const wrk = ensureWrk()
  const dir = mkdtempSync(join(tmpdir(), "burst-"))
  const file = join(dir, "flood.txt")
  writeFileSync(file, `${PATH}\t${WAGE}\n`)
  try {
    const p99s = new Map<string, Array<number>>()
    for (let round = 1; round <= rounds; round++) {
      const targets: Array<Target> = round % 2 === 1 ? ["service", "baseline"] : ["baseline", "service"]
      for (const target of targets) {
        for (const phase of ["quiet", "burst"] as const) {
          const m = await measure(wrk, file, target, phase, seconds, binary)
          const key = `${target} ${phase}`
          p99s.set(key, [...(p99s.get(key) ?? []), at(m.latencies, 0.99)])
          console.log(
            `round ${round}  ${key.padEnd(15)} paced ${m.latencies.length} ok, ${m.failures} not 200   ` +
              `p50 ${at(m.latencies, 0.5).toFixed(2)} ms  p99 ${at(m.latencies, 0.99).toFixed(2)} ms  ` +
              `max ${at(m.latencies, 1).toFixed(2)} ms   flood ${Math.round(m.floodPerSecond)}/s ` +
              `(${m.floodRejected} not 2xx)`
          )
        }
      }
    }
    const best = (key: string) => Math.min(...(p99s.get(key) ?? [Number.NaN]))
    for (const target of ["service", "baseline"] as const) {
      const quiet = best(`${target} quiet`)
      const burst = best(`${target} burst`)
      console.log(
        `${target.padEnd(9)} p99 quiet ${quiet.toFixed(2)} ms, burst ${burst.toFixed(2)} ms: ×${(burst / quiet).toFixed(2)}`
      )
    }
    console.log(`service/baseline p99 in the burst: ×${(best("service burst") / best("baseline burst")).toFixed(2)}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
