/**
 * `bun bench/soak.ts [options]`: memory under a flood of distinct callers. Starts the real server on loopback with
 * TRUST_PROXY=true and API_KEYS_FILE holding many keys, then sends, interleaved: one request per key (valid), one
 * failed authentication per distinct X-Forwarded-For address, and one parse per distinct user agent. Samples the
 * server's RSS (VmRSS in /proc/<pid>/status) as it goes and prints the curve: past the caps (address table 100,000,
 * parse cache UA_CACHE_SIZE) it should level off. Bounded in requests and in time. See bench/README.md, "Soak".
 *
 * The limits are set just above what each caller sends (2 a minute per key, 1 failure a minute per address): no
 * request is limited, and every bucket stays in its table for the whole run, the worst case for memory. (With a high
 * limit a bucket is full again within milliseconds and dropped, so the tables would never fill.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "..")

const USAGE = `Usage: bun bench/soak.ts [options]

  --keys N          distinct API keys, one request each plus the parses (default 50000)
  --addresses N     distinct client addresses, one failed authentication each (default 250000)
  --uas N           distinct user agents, one parse each (default 30000)
  --samples N       RSS samples along the run (default 10)
  --concurrency N   requests in flight (default 64)
  --max-seconds S   stop sending after S seconds, whatever is left (default 600)
  --binary PATH     soak this compiled binary instead of \`bun src/main.ts\`
  --env NAME=VALUE  extra environment for the server (repeatable), e.g. --env UA_CACHE_SIZE=1000
`

const options = {
  keys: 50_000,
  addresses: 250_000,
  uas: 30_000,
  samples: 10,
  concurrency: 64,
  maxSeconds: 600,
  binary: undefined as string | undefined,
  env: {} as Record<string, string>
}
const args = process.argv.slice(2)
for (let i = 0; i < args.length; i++) {
  const [flag, value] = [args[i], args[i + 1]]
  const count = () => {
    const n = Number(value)
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer, got ${value}`)
    i++
    return n
  }
  if (flag === "--keys") options.keys = count()
  else if (flag === "--addresses") options.addresses = count()
  else if (flag === "--uas") options.uas = count()
  else if (flag === "--samples") options.samples = count()
  else if (flag === "--concurrency") options.concurrency = count()
  else if (flag === "--max-seconds") options.maxSeconds = count()
  else if (flag === "--binary" && value !== undefined) ((options.binary = resolve(value)), i++)
  else if (flag === "--env" && value?.includes("=")) {
    options.env[value.slice(0, value.indexOf("="))] = value.slice(value.indexOf("=") + 1)
    i++
  } else {
    process.stdout.write(USAGE)
    process.exit(flag === "--help" ? 0 : 2)
  }
}

const dir = mkdtempSync(join(tmpdir(), "tools-api-soak-"))
const keys = Array.from({ length: options.keys }, (_, i) => `soak-${i}-${crypto.randomUUID()}`)
writeFileSync(join(dir, "keys.txt"), `${keys.join("\n")}\n`)

const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } })
const port = probe.port
probe.stop(true)
const base = `http://127.0.0.1:${port}`

const server = Bun.spawn(options.binary === undefined ? [process.execPath, "src/main.ts"] : [options.binary], {
  cwd: ROOT,
  env: {
    PATH: process.env.PATH ?? "",
    HOST: "127.0.0.1",
    PORT: String(port),
    API_KEYS_FILE: join(dir, "keys.txt"),
    TRUST_PROXY: "true",
    RATE_LIMIT_PER_MINUTE: "2",
    AUTH_FAILURES_PER_MINUTE: "1",
    LOG_LEVEL: "warning",
    ...options.env
  },
  stdout: "ignore",
  stderr: "inherit"
})

const rssMb = (): number => {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8")
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) / 1024
}

const statuses = new Map<number, number>()
const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)

const wage = (key: string) =>
  fetch(`${base}/v1/tools/wage-estimator`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: '{"hourlyWage":25}'
  })
const failure = (i: number) =>
  fetch(`${base}/v1/tools/wage-estimator`, {
    method: "POST",
    headers: {
      authorization: `Bearer soak-wrong-${i}`,
      "content-type": "application/json",
      "x-forwarded-for": `198.51.100.7, 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
    },
    body: "{}"
  })
const userAgent = (i: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${i}.0 Safari/537.36 soak/${i}`
const parse = (key: string, i: number) =>
  fetch(`${base}/v1/tools/user-agent-parser`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ operation: "parse", userAgent: userAgent(i) })
  })

/**
 * One tick sends one failed authentication from a new address, and, spread evenly over the ticks, the requests with
 * a new key and the parses of a new user agent.
 */
const ticks = Math.max(options.addresses, options.keys, options.uas)
const requestsOf = (tick: number): Array<() => Promise<Response>> => {
  const spread = (n: number) => Math.floor(((tick + 1) * n) / ticks) - Math.floor((tick * n) / ticks)
  const sends: Array<() => Promise<Response>> = []
  if (tick < options.addresses) sends.push(() => failure(tick))
  for (let k = spread(options.keys); k > 0; k--) {
    const key = keys[Math.floor((tick * options.keys) / ticks)]!
    sends.push(() => wage(key))
  }
  for (let u = spread(options.uas); u > 0; u--) {
    const i = Math.floor((tick * options.uas) / ticks)
    sends.push(() => parse(keys[i % keys.length]!, i))
  }
  return sends
}

try {
  const started = Date.now()
  for (;;) {
    const up = await fetch(`${base}/health`).catch(() => undefined)
    if (up?.status === 200) break
    if (Date.now() - started > 30_000 || server.exitCode !== null) throw new Error("the server did not start")
    await Bun.sleep(50)
  }
  const total = options.keys + options.addresses + options.uas
  console.log(
    `soak: ${options.keys} keys, ${options.addresses} addresses, ${options.uas} user agents ` +
      `(${total} requests), concurrency ${options.concurrency}, ${options.binary ?? "bun src/main.ts"}`
  )
  const curve: Array<{ done: number; seconds: number; rss: number }> = []
  const sample = (done: number) => {
    const point = { done, seconds: (Date.now() - begin) / 1000, rss: rssMb() }
    curve.push(point)
    console.log(
      `  ${String(done).padStart(7)} requests  ${point.seconds.toFixed(1).padStart(6)} s  RSS ${point.rss.toFixed(1)} MB`
    )
  }
  const begin = Date.now()
  sample(0)
  let tick = 0
  let done = 0
  let nextSample = 1
  let timedOut = false
  const worker = async () => {
    for (;;) {
      if (Date.now() - begin > options.maxSeconds * 1000) timedOut = true
      if (timedOut || tick >= ticks) return
      for (const send of requestsOf(tick++)) {
        const response = await send().catch(() => undefined)
        count(response?.status ?? 0)
        await response?.arrayBuffer()
        done++
      }
      if (done >= (nextSample * total) / options.samples) {
        nextSample++
        sample(done)
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  if (curve.at(-1)?.done !== done) sample(done)
  await Bun.sleep(2_000)
  const after = rssMb()
  console.log(`  2 s later: RSS ${after.toFixed(1)} MB`)
  console.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`)
  if (timedOut) console.log(`stopped at --max-seconds ${options.maxSeconds}, ${done} of ${total} requests sent`)
  const middle = curve[Math.floor(curve.length / 2)]!
  console.log(
    `RSS start ${curve[0]!.rss.toFixed(0)} MB, middle ${middle.rss.toFixed(0)} MB (${middle.done} requests), ` +
      `end ${curve.at(-1)!.rss.toFixed(0)} MB (${done} requests), ${((Date.now() - begin) / 1000).toFixed(0)} s`
  )
} finally {
  server.kill("SIGTERM")
  await server.exited
  rmSync(dir, { recursive: true, force: true })
}
