/**
 * The load generator: wrk driven by bench/requests.lua through a request file (bench/workloads.ts), installed with
 * apt-get when missing and running as root, its summary read from the JSON line the script prints.
 */
import { join } from "node:path"
import { fail } from "./args.ts"
import { BENCH, KEY } from "./server.ts"

/** The path of wrk, installing it first when it is missing and we may (root on Debian or Ubuntu). */
export const ensureWrk = (): string => {
  const found = Bun.which("wrk")
  if (found !== null) return found
  if (process.getuid?.() !== 0) {
    return fail("wrk is not installed. Install it (Debian/Ubuntu: sudo apt-get install -y wrk) and run again.")
  }
  process.stderr.write("bench: wrk not found; installing it with apt-get (running as root)\n")
  // the first install fails on a machine whose package lists were never fetched: update, then try again
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

/** The summary bench/requests.lua prints; times in µs. */
export interface WrkResult {
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

export interface WrkLoad {
  readonly port: number
  /** the request file, one `<path>\t<json body>` a line */
  readonly file: string
  readonly seconds: number
  /** default 1: on 2 cores the other one is the server's */
  readonly threads?: number
  readonly connections?: number
  /** a request's time-out in seconds; wrk's own (2 s) when not given */
  readonly timeout?: number
}

/** Runs wrk against 127.0.0.1:port for `seconds` with the bench key, killing it should it outlive them by 30 s. */
export const runWrk = async (wrk: string, load: WrkLoad): Promise<WrkResult> => {
  const proc = Bun.spawn(
    [
      wrk,
      `-t${load.threads ?? 1}`,
      `-c${load.connections ?? 32}`,
      `-d${load.seconds}s`,
      ...(load.timeout === undefined ? [] : ["--timeout", `${load.timeout}s`]),
      "-s",
      join(BENCH, "requests.lua"),
      `http://127.0.0.1:${load.port}`,
      "--",
      load.file,
      KEY
    ],
    { stdout: "pipe", stderr: "pipe" }
  )
  const timer = setTimeout(() => proc.kill("SIGKILL"), (load.seconds + 30) * 1000)
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
  return code !== 0 || line === undefined
    ? fail(`wrk failed (exit ${code}):\n${out}\n${err}`)
    : (JSON.parse(line) as WrkResult)
}

/** Requests that did not get a 2xx in time: socket errors, non-2xx answers and time-outs. */
export const wrkErrors = (result: WrkResult): number =>
  result.connectErrors + result.readErrors + result.writeErrors + result.statusErrors + result.timeouts
