/**
 * `bun run bench`: the service against a bare-Bun baseline (bench/baseline.ts) in the same run, workload by workload,
 * with wrk on loopback. Prints requests/s, p50/p99 latency and peak RSS of each, and the ratio service/baseline.
 * Also the time from start to first response (`startup`) of the source, the compiled binary and the baseline.
 * See bench/README.md.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import type { Subprocess } from "bun"
import { requestLines, type Workload, WORKLOADS } from "./workloads.ts"

const ROOT = resolve(import.meta.dir, "..")
const KEY = "bench-key-0123456789abcdef0123456789"

const USAGE = `Usage: bun run bench [-- options]

  --workload a,b      ua-mix, ua-cold, wage, startup (default: all four)
  --duration S        seconds measured per run (default 10)
  --warmup S          seconds of load before each measured run, not counted (default 5: the JIT settles in ~4)
  --rounds N          runs of each target per workload, in alternating order (default 1)
  --connections N     wrk connections (default 32)
  --threads N         wrk threads (default 1: the other core is the server's)
  --only T            run one target: service, baseline or floor
  --no-floor          leave out the floor (bench/floor.ts: a minimal Effect HttpApi with the same endpoints)
  --binary PATH       measure this compiled binary as the service instead of \`bun src/main.ts\`
  --env NAME=VALUE    extra environment for the service (repeatable), e.g. --env WORKERS=2 --env REDIS_URL=...
  --logs DIR          keep each server's stdout (its request log) in DIR instead of /dev/null
  --startup-runs N    starts measured per target for the startup workload (default 5)
  --json PATH         also write the results as JSON
  --profile DIR       run the service under \`bun --cpu-prof --cpu-prof-md\`: a profile a run in DIR, as .cpuprofile
                      (summarise it with \`bun bench/profile.ts FILE\`) and as markdown
`

interface Options {
  workloads: Array<Workload | "startup">
  duration: number
  warmup: number
  rounds: number
  connections: number
  threads: number
  only: Target | undefined
  floor: boolean
  binary: string | undefined
  env: Record<string, string>
  logs: string | undefined
  startupRuns: number
  json: string | undefined
  profile: string | undefined
}

const fail = (message: string): never => {
  process.stderr.write(`bench: ${message}\n`)
  process.exit(2)
}

const positive = (name: string, value: string | undefined): number => {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? n : fail(`${name} needs a positive number, got ${JSON.stringify(value)}`)
}

const parseOptions = (argv: ReadonlyArray<string>): Options => {
  const options: Options = {
    workloads: [...WORKLOADS, "startup"],
    duration: 10,
    warmup: 5,
    rounds: 1,
    connections: 32,
    threads: 1,
    only: undefined,
    floor: true,
    binary: undefined,
    env: {},
    logs: undefined,
    startupRuns: 5,
    json: undefined,
    profile: undefined
  }
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined]
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`)
    switch (flag) {
      case "--workload":
      case "--workloads": {
        const names = value().split(",")
        for (const name of names) {
          if (name !== "startup" && !(WORKLOADS as ReadonlyArray<string>).includes(name)) {
            fail(`unknown workload ${name}; choose from ${[...WORKLOADS, "startup"].join(", ")}`)
          }
        }
        options.workloads = names as Options["workloads"]
        break
      }
      case "--duration":
        options.duration = positive(flag, value())
        break
      case "--warmup":
        options.warmup = Number(value())
        break
      case "--rounds":
        options.rounds = Math.floor(positive(flag, value()))
        break
      case "--connections":
        options.connections = Math.floor(positive(flag, value()))
        break
      case "--threads":
        options.threads = Math.floor(positive(flag, value()))
        break
      case "--only": {
        const target = value()
        if (!(TARGET_NAMES as ReadonlyArray<string>).includes(target)) fail("--only takes service, baseline or floor")
        options.only = target as Target
        break
      }
      case "--no-floor":
        options.floor = false
        break
      case "--binary":
        options.binary = resolve(value())
        break
      case "--env": {
        const [name, envValue] = value().split(/=(.*)/s, 2)
        if (name === undefined || name === "" || envValue === undefined) fail("--env takes NAME=VALUE")
        options.env[name!] = envValue!
        break
      }
      case "--logs":
        options.logs = resolve(value())
        break
      case "--startup-runs":
        options.startupRuns = Math.floor(positive(flag, value()))
        break
      case "--json":
        options.json = resolve(value())
        break
      case "--profile":
        options.profile = resolve(value())
        break
      case "--help":
      case "-h":
        process.stdout.write(USAGE)
        process.exit(0)
      default:
        fail(`unknown option ${flag}\n${USAGE}`)
    }
  }
  return options
}

// ---------------------------------------------------------------------------------------------------------------
// wrk

const ensureWrk = (): string => {
  const found = Bun.which("wrk")
  if (found !== null) return found
  if (process.getuid?.() !== 0) {
    return fail("wrk is not installed. Install it (Debian/Ubuntu: sudo apt-get install -y wrk) and run again.")
  }
  process.stderr.write("bench: wrk not found; installing it with apt-get (running as root)\n")
  for (const command of [
    ["apt-get", "install", "-y", "wrk"],
    ["apt-get", "update"],
    ["apt-get", "install", "-y", "wrk"]
  ]) {
    const result = Bun.spawnSync(command, { stdout: "ignore", stderr: "inherit" })
    if (result.exitCode === 0 && command[1] === "install") break
  }
  return Bun.which("wrk") ?? fail("could not install wrk with apt-get; install it and run again")
}

interface WrkResult {
  readonly requests: number
  readonly durationUs: number
  readonly connectErrors: number
  readonly readErrors: number
  readonly writeErrors: number
  readonly statusErrors: number
  readonly timeouts: number
  readonly p50Us: number
  readonly p90Us: number
  readonly p99Us: number
  readonly maxUs: number
}

const runWrk = async (wrk: string, options: Options, port: number, file: string, seconds: number) => {
  const proc = Bun.spawn(
    [
      wrk,
      `-t${options.threads}`,
      `-c${options.connections}`,
      `-d${seconds}s`,
      "--timeout",
      "10s",
      "-s",
      join(import.meta.dir, "requests.lua"),
      `http://127.0.0.1:${port}`,
      "--",
      file,
      KEY
    ],
    { stdout: "pipe", stderr: "pipe" }
  )
  const timer = setTimeout(() => proc.kill("SIGKILL"), (seconds + 30) * 1000)
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited
  ])
  clearTimeout(timer)
  const line = out
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"))
  if (code !== 0 || line === undefined) fail(`wrk failed (exit ${code}):\n${out}\n${err}`)
  return JSON.parse(line!) as WrkResult
}

// ---------------------------------------------------------------------------------------------------------------
// servers

const TARGET_NAMES = ["baseline", "floor", "service"] as const
type Target = (typeof TARGET_NAMES)[number]

interface Server {
  readonly proc: Subprocess
  readonly port: number
  readonly stop: () => Promise<void>
}

const freePort = (): number => {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() })
  const port = probe.port
  probe.stop(true)
  return port!
}

const commandFor = (target: Target, options: Options): Array<string> =>
  target !== "service"
    ? [process.execPath, join(import.meta.dir, `${target}.ts`)]
    : options.binary !== undefined
      ? [options.binary]
      : options.profile !== undefined
        ? [
            process.execPath,
            "--cpu-prof",
            "--cpu-prof-md",
            `--cpu-prof-dir=${options.profile}`,
            join(ROOT, "src/main.ts")
          ]
        : [process.execPath, join(ROOT, "src/main.ts")]

const envFor = (target: Target, options: Options, port: number): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  PORT: String(port),
  HOST: "127.0.0.1",
  API_KEYS: KEY,
  // high enough never to bite: the bench measures serving, not refusing
  RATE_LIMIT_PER_MINUTE: "1000000000",
  ...(target === "service" ? options.env : {})
})

const health = async (port: number): Promise<boolean> => {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`)
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

let logCount = 0
const startServer = async (target: Target, options: Options, label: string): Promise<Server> => {
  const port = freePort()
  const stdout =
    options.logs === undefined ? "ignore" : Bun.file(join(options.logs, `${++logCount}-${label}-${target}.log`))
  const proc = Bun.spawn(commandFor(target, options), {
    cwd: ROOT,
    env: envFor(target, options, port),
    stdout,
    stderr: "pipe"
  })
  const stderr: Array<string> = []
  void (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of proc.stderr) stderr.push(decoder.decode(chunk, { stream: true }))
  })()
  const deadline = Date.now() + 30_000
  while (!(await health(port))) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill("SIGKILL")
      fail(`the ${target} did not start (exit ${proc.exitCode}):\n${stderr.join("")}`)
    }
    await Bun.sleep(20)
  }
  const stop = async () => {
    proc.kill("SIGTERM")
    const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000)
    await proc.exited
    clearTimeout(killer)
  }
  return { proc, port, stop }
}

/** CPU time the process has used so far (all its threads: JavaScript, JIT, GC), in seconds. */
const cpuSeconds = (pid: number): number => {
  try {
    // the fields after the command name, which is in parentheses and may hold spaces
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

/** Peak resident memory in bytes (VmHWM), read from /proc while the process is alive. */
const peakRss = (pid: number): number => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1] ?? /VmRSS:\s+(\d+)/.exec(status)?.[1]
    return kb === undefined ? 0 : Number(kb) * 1024
  } catch {
    return 0
  }
}

// ---------------------------------------------------------------------------------------------------------------
// checks: the targets answer alike, so the comparison is of the same work

const sampleCheck = async (files: Map<Workload, string>, options: Options, targets: ReadonlyArray<Target>) => {
  const servers = await Promise.all(targets.map((target) => startServer(target, options, "check")))
  try {
    for (const [workload, file] of files) {
      const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).slice(0, 60)
      let compared = 0
      for (const line of lines) {
        const [path, body] = line.split("\t") as [string, string]
        const post = async (port: number) => {
          const response = await fetch(`http://127.0.0.1:${port}${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
            body
          })
          return { status: response.status, text: await response.text() }
        }
        const answers = await Promise.all(servers.map((server) => post(server.port)))
        const named = answers.map((a, i) => `${targets[i]} ${a.status} ${a.text}`).join("\n  ")
        if (answers.some((a) => a.status !== 200)) fail(`${workload}: ${body} was not answered 200 by all:\n  ${named}`)
        if (body.includes('"generate"')) continue
        if (answers.some((a) => a.text !== answers[0]!.text)) fail(`${workload}: the answers differ:\n  ${named}`)
        compared++
      }
      console.log(`check ${workload}: ${compared} answers identical in ${targets.join(", ")}`)
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
}

// ---------------------------------------------------------------------------------------------------------------
// measuring

interface Measured {
  readonly workload: Workload
  readonly target: Target
  readonly round: number
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly peakRssMb: number
  /** the server's CPU time per request: less sensitive than req/s to what else runs on a shared machine */
  readonly cpuUs: number
  readonly errors: number
}

const measure = async (
  wrk: string,
  workload: Workload,
  file: string,
  target: Target,
  round: number,
  options: Options
): Promise<Measured> => {
  const server = await startServer(target, options, workload)
  try {
    if (options.warmup > 0) await runWrk(wrk, options, server.port, file, options.warmup)
    const cpuBefore = cpuSeconds(server.proc.pid)
    const result = await runWrk(wrk, options, server.port, file, options.duration)
    const cpu = cpuSeconds(server.proc.pid) - cpuBefore
    const errors = result.connectErrors + result.readErrors + result.writeErrors + result.statusErrors + result.timeouts
    return {
      workload,
      target,
      round,
      rps: result.requests / (result.durationUs / 1e6),
      p50Ms: result.p50Us / 1000,
      p99Ms: result.p99Us / 1000,
      peakRssMb: peakRss(server.proc.pid) / 2 ** 20,
      cpuUs: (cpu * 1e6) / result.requests,
      errors
    }
  } finally {
    await server.stop()
  }
}

interface Startup {
  readonly target: string
  /** ms from spawn to the first 200 on /health */
  readonly runs: ReadonlyArray<number>
  /** ms of CPU the process had used by then, all threads (steadier than the wall time on a shared machine) */
  readonly cpu: ReadonlyArray<number>
}

/** CPU time used so far by all the threads of a process, in ms, from /proc/<pid>/task/<tid>/schedstat (ns). */
const cpuMillis = (pid: number): number => {
  let ns = 0
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    return Number.NaN
  }
  return ns / 1e6
}

const measureStartup = async (options: Options): Promise<Array<Startup>> => {
  const binary = options.binary ?? join(ROOT, "dist/tools-api")
  const targets: Array<{ name: string; command: Array<string> }> = [
    { name: "service (bun src/main.ts)", command: [process.execPath, join(ROOT, "src/main.ts")] },
    { name: "baseline", command: [process.execPath, join(import.meta.dir, "baseline.ts")] }
  ]
  if (await Bun.file(binary).exists())
    targets.unshift({ name: `binary (${binary.replace(`${ROOT}/`, "")})`, command: [binary] })
  else console.log(`startup: no ${binary}; run \`bun run build\` first to measure the binary`)
  const results = targets.map(({ name }) => ({ target: name, runs: [] as Array<number>, cpu: [] as Array<number> }))
  // interleaved, so a busy moment on the machine does not fall on one target's starts only
  for (let i = 0; i < options.startupRuns; i++) {
    for (const [index, { command }] of targets.entries()) {
      const port = freePort()
      const started = performance.now()
      const proc = Bun.spawn(command, {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", API_KEYS: KEY },
        stdout: "ignore",
        stderr: "ignore"
      })
      let elapsed = Number.NaN
      let cpu = Number.NaN
      while (performance.now() - started < 10_000 && proc.exitCode === null) {
        if (await health(port)) {
          elapsed = performance.now() - started
          cpu = cpuMillis(proc.pid)
          break
        }
        await Bun.sleep(2)
      }
      proc.kill("SIGTERM")
      await proc.exited
      results[index]!.runs.push(elapsed)
      results[index]!.cpu.push(cpu)
    }
  }
  return results
}

// ---------------------------------------------------------------------------------------------------------------
// report

const TARGETS: Record<Workload, number> = { "ua-mix": 0.25, "ua-cold": 0.5, wage: 0.25 }
const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "-")

interface Row {
  readonly rps: number
  /** The fastest round's requests/s: noise from other work on the machine only ever slows a run down. */
  readonly bestRps: number
  readonly p50: number
  readonly p99: number
  readonly rss: number
  readonly cpuUs: number
  readonly errors: number
}

const summarise = (results: ReadonlyArray<Measured>, options: Options) => {
  const rows: Array<Record<string, unknown>> = []
  const lines: Array<string> = []
  const head = ["workload", "target", "req/s", "p50 ms", "p99 ms", "peak RSS MB", "CPU µs/req", "errors"]
  lines.push(head.map((h, i) => (i < 2 ? h.padEnd(10) : h.padStart(12))).join(""))
  for (const workload of WORKLOADS) {
    const of = (target: Target) => results.filter((r) => r.workload === workload && r.target === target)
    const byTarget = new Map<Target, Row>()
    for (const target of TARGET_NAMES) {
      const runs = of(target)
      if (runs.length === 0) continue
      const row: Row = {
        rps: mean(runs.map((r) => r.rps)),
        bestRps: Math.max(...runs.map((r) => r.rps)),
        p50: mean(runs.map((r) => r.p50Ms)),
        p99: mean(runs.map((r) => r.p99Ms)),
        rss: Math.max(...runs.map((r) => r.peakRssMb)),
        cpuUs: mean(runs.map((r) => r.cpuUs)),
        errors: runs.reduce((a, r) => a + r.errors, 0)
      }
      byTarget.set(target, row)
      rows.push({ workload, target, ...row, rounds: runs.map((r) => Math.round(r.rps)) })
      lines.push(
        [
          workload.padEnd(10),
          target.padEnd(10),
          fixed(row.rps, 0).padStart(12),
          fixed(row.p50, 2).padStart(12),
          fixed(row.p99, 2).padStart(12),
          fixed(row.rss, 0).padStart(12),
          fixed(row.cpuUs, 0).padStart(12),
          String(row.errors).padStart(12)
        ].join("")
      )
    }
    const s = byTarget.get("service")
    const b = byTarget.get("baseline")
    const f = byTarget.get("floor")
    if (f !== undefined && b !== undefined) {
      lines.push(
        `${"".padEnd(10)}floor/baseline: throughput ${(f.rps / b.rps).toFixed(3)}, p99 ${(f.p99 / b.p99).toFixed(2)}x, ` +
          `CPU per request ${(b.cpuUs / f.cpuUs).toFixed(3)} (baseline/floor)`
      )
    }
    if (f !== undefined && s !== undefined) {
      lines.push(
        `${"".padEnd(10)}service/floor: throughput ${(s.rps / f.rps).toFixed(3)}, p99 ${(s.p99 / f.p99).toFixed(2)}x, ` +
          `CPU per request ${(f.cpuUs / s.cpuUs).toFixed(3)} (floor/service)`
      )
      rows.push({ workload, serviceOverFloor: s.rps / f.rps, floorCpuOverService: f.cpuUs / s.cpuUs })
    }
    if (s !== undefined && b !== undefined) {
      const ratio = s.rps / b.rps
      const p99 = s.p99 / b.p99
      const cpu = b.cpuUs / s.cpuUs
      const verdict = (ok: boolean) => (ok ? "ok" : "MISSED")
      lines.push(
        `${"".padEnd(10)}service/baseline: throughput ${ratio.toFixed(3)} ` +
          `(target >= ${TARGETS[workload]}: ${verdict(ratio >= TARGETS[workload])}), ` +
          `p99 ${p99.toFixed(2)}x (target <= 4: ${verdict(p99 <= 4)}), ` +
          `RSS ${s.rss.toFixed(0)} MB (target <= 150: ${verdict(s.rss <= 150)}); ` +
          `baseline CPU/service CPU per request ${cpu.toFixed(3)}`
      )
      rows.push({ workload, ratio, p99Ratio: p99, cpuRatio: cpu, bestRatio: s.bestRps / b.bestRps })
      if (options.rounds > 1) {
        lines.push(
          `${"".padEnd(10)}service/baseline, fastest round of each: throughput ${(s.bestRps / b.bestRps).toFixed(3)}`
        )
      }
    }
  }
  return { lines, rows }
}

// ---------------------------------------------------------------------------------------------------------------

const main = async () => {
  const options = parseOptions(process.argv.slice(2))
  const loads = options.workloads.filter((w): w is Workload => w !== "startup")
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown CPU"
  console.log(
    `bench: ${navigator.hardwareConcurrency} cores, ${cpu}, Bun ${Bun.version}; ` +
      `${options.duration}s measured after ${options.warmup}s warm-up, ${options.connections} connections, ` +
      `${options.rounds} round(s)` +
      (Object.keys(options.env).length > 0 ? `; service env ${JSON.stringify(options.env)}` : "")
  )
  if (options.logs !== undefined) mkdirSync(options.logs, { recursive: true })
  const results: Array<Measured> = []
  let startup: Array<Startup> = []
  const dir = mkdtempSync(join(tmpdir(), "tools-api-bench-"))
  try {
    if (loads.length > 0) {
      const wrk = ensureWrk()
      const files = new Map<Workload, string>()
      for (const workload of loads) {
        const file = join(dir, `${workload}.txt`)
        writeFileSync(file, requestLines(workload).join("\n") + "\n")
        files.set(workload, file)
      }
      const targets: Array<Target> =
        options.only !== undefined
          ? [options.only]
          : TARGET_NAMES.filter((target) => target !== "floor" || options.floor)
      if (targets.length > 1) await sampleCheck(files, options, targets)
      for (const workload of loads) {
        for (let round = 1; round <= options.rounds; round++) {
          for (const target of round % 2 === 1 ? targets : [...targets].reverse()) {
            const m = await measure(wrk, workload, files.get(workload)!, target, round, options)
            console.log(
              `${workload} ${target} round ${round}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, ` +
                `p99 ${m.p99Ms.toFixed(2)} ms, peak RSS ${m.peakRssMb.toFixed(0)} MB, ` +
                `${m.cpuUs.toFixed(0)} µs CPU/request` +
                (m.errors > 0 ? `, ${m.errors} errors (non-2xx, timeouts, socket)` : "")
            )
            results.push(m)
          }
        }
      }
    }
    if (options.workloads.includes("startup")) startup = await measureStartup(options)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  console.log("")
  const { lines, rows } = summarise(results, options)
  if (results.length > 0) for (const line of lines) console.log(line)
  for (const { cpu, runs, target } of startup) {
    const sorted = [...runs].sort((a, b) => a - b)
    const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    console.log(
      `startup ${target}: first response after ${fixed(median(runs), 0)} ms median ` +
        `(${sorted.map((r) => fixed(r, 0)).join(", ")} ms); CPU by then ${fixed(median(cpu), 0)} ms median`
    )
  }
  if (options.json !== undefined) {
    writeFileSync(options.json, JSON.stringify({ options, results, summary: rows, startup }, null, 2) + "\n")
  }
  if (results.some((r) => r.errors > 0)) {
    console.log("bench: some requests failed (see errors above); the figures are not comparable")
    process.exitCode = 1
  }
}

await main()
