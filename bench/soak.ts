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
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { count, envPair, fail, main, parseFlags } from "./lib/args.ts"
import { rss } from "./lib/proc.ts"
import { startServer } from "./lib/server.ts"

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

const parseOptions = (argv: ReadonlyArray<string>) => {
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
  parseFlags(argv, USAGE, {
    "--keys": (value, flag) => (options.keys = count(flag, value())),
    "--addresses": (value, flag) => (options.addresses = count(flag, value())),
    "--uas": (value, flag) => (options.uas = count(flag, value())),
    "--samples": (value, flag) => (options.samples = count(flag, value())),
    "--concurrency": (value, flag) => (options.concurrency = count(flag, value())),
    "--max-seconds": (value, flag) => (options.maxSeconds = count(flag, value())),
    "--binary": (value) => (options.binary = resolve(value())),
    "--env": (value) => {
      const [name, envValue] = envPair(value())
      options.env[name] = envValue
    }
  })
  return options
}

/** The three kinds of request, to the server at `base`. */
const requests = (base: string) => {
  const post = (path: string, headers: Record<string, string>, body: string) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })
  const userAgent = (i: number) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${i}.0 Safari/537.36 soak/${i}`
  return {
    wage: (key: string) => post("/v1/tools/wage-estimator", { authorization: `Bearer ${key}` }, '{"hourlyWage":25}'),
    failure: (i: number) =>
      post(
        "/v1/tools/wage-estimator",
        {
          authorization: `Bearer soak-wrong-${i}`,
          "x-forwarded-for": `198.51.100.7, 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
        },
        "{}"
      ),
    parse: (key: string, i: number) =>
      post(
        "/v1/tools/user-agent-parser",
        { authorization: `Bearer ${key}` },
        JSON.stringify({ operation: "parse", userAgent: userAgent(i) })
      )
  }
}

/** Sends the flood to the server at `port` (process `pid`), sampling its RSS, and prints the curve. */
const soak = async (
  options: ReturnType<typeof parseOptions>,
  keys: ReadonlyArray<string>,
  port: number,
  pid: number
) => {
  const { wage, failure, parse } = requests(`http://127.0.0.1:${port}`)
  const rssMb = () => {
    const bytes = rss(pid)
    // a server that died would otherwise leave the soak sending into the void
    return Number.isNaN(bytes) ? fail("the server is gone") : bytes / 2 ** 20
  }
  const statuses = new Map<number, number>()
  const tally = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)

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

  const total = options.keys + options.addresses + options.uas
  console.log(
    `soak: ${options.keys} keys, ${options.addresses} addresses, ${options.uas} user agents ` +
      `(${total} requests), concurrency ${options.concurrency}, ${options.binary ?? "bun src/main.ts"}`
  )
  const curve: Array<{ done: number; seconds: number; rss: number }> = []
  const begin = Date.now()
  const sample = (done: number) => {
    const point = { done, seconds: (Date.now() - begin) / 1000, rss: rssMb() }
    curve.push(point)
    console.log(
      `  ${String(done).padStart(7)} requests  ${point.seconds.toFixed(1).padStart(6)} s  RSS ${point.rss.toFixed(1)} MB`
    )
  }
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
        tally(response?.status ?? 0)
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
  console.log(`  2 s later: RSS ${rssMb().toFixed(1)} MB`)
  console.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`)
  if (timedOut) console.log(`stopped at --max-seconds ${options.maxSeconds}, ${done} of ${total} requests sent`)
  const middle = curve[Math.floor(curve.length / 2)]!
  console.log(
    `RSS start ${curve[0]!.rss.toFixed(0)} MB, middle ${middle.rss.toFixed(0)} MB (${middle.done} requests), ` +
      `end ${curve.at(-1)!.rss.toFixed(0)} MB (${done} requests), ${((Date.now() - begin) / 1000).toFixed(0)} s`
  )
}

await main(async () => {
  const options = parseOptions(process.argv.slice(2))
  const dir = mkdtempSync(join(tmpdir(), "tools-api-soak-"))
  try {
    const keys = Array.from({ length: options.keys }, (_, i) => `soak-${i}-${crypto.randomUUID()}`)
    writeFileSync(join(dir, "keys.txt"), `${keys.join("\n")}\n`)
    const server = await startServer({
      name: "server",
      command: options.binary === undefined ? [process.execPath, "src/main.ts"] : [options.binary],
      env: {
        API_KEYS_FILE: join(dir, "keys.txt"),
        TRUST_PROXY: "true",
        RATE_LIMIT_PER_MINUTE: "2",
        AUTH_FAILURES_PER_MINUTE: "1",
        LOG_LEVEL: "warning",
        ...options.env
      },
      stderr: "inherit"
    })
    try {
      await soak(options, keys, server.port, server.proc.pid)
    } finally {
      await server.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
