/**
 * The targets of `bun run bench` (the service, bench/baseline.ts, bench/floor.ts, and with --compare the service of
 * another checkout): how each is started, and
 * the check that they give the same answers, so that the comparison is of the same work.
 */
import { join } from "node:path"
import { readFileSync } from "node:fs"
import { fail } from "../lib/args.ts"
import { BENCH, KEY, LOAD_ENV, ROOT, type Server, startServer } from "../lib/server.ts"
import type { Workload } from "../workloads.ts"
import type { Options, Target } from "./options.ts"

/** Under --profile, every target run from source is profiled, each into its own folder of DIR. */
const profiled = (target: Target, options: Options): Array<string> =>
  options.profile === undefined
    ? [process.execPath]
    : [process.execPath, "--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${join(options.profile, target)}`]

const commandFor = (target: Target, options: Options): Array<string> =>
  target === "earlier"
    ? [...profiled(target, options), join(options.compare ?? fail("no --compare DIR"), "src/main.ts")]
    : target !== "service"
      ? [...profiled(target, options), join(BENCH, `${target}.ts`)]
      : options.binary !== undefined
        ? [options.binary]
        : [...profiled(target, options), join(ROOT, "src/main.ts")]

let logCount = 0
/**
 * Starts a target fresh, its stdout (the request log) written to a file in `logs` (--logs, or the run's temporary
 * folder), as a deployment writes it; `label` (the workload, or "check") names the file.
 */
export const startTarget = (target: Target, options: Options, label: string, logs: string): Promise<Server> =>
  startServer({
    name: target,
    command: commandFor(target, options),
    // --env is for the services only: the references stay as they are
    env: target === "service" || target === "earlier" ? { ...LOAD_ENV, ...options.env } : LOAD_ENV,
    stdout: Bun.file(join(options.logs ?? logs, `${++logCount}-${label}-${target}.log`))
  })

/**
 * Posts the first 60 requests of each workload to all targets and fails unless every answer is a 200 and, generated
 * user agents aside, the answers are byte-identical.
 */
export const sampleCheck = async (
  files: Map<Workload, string>,
  options: Options,
  targets: ReadonlyArray<Target>,
  logs: string
) => {
  const started = await Promise.allSettled(targets.map((target) => startTarget(target, options, "check", logs)))
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []))
  try {
    // the ones that did start are stopped below when another did not
    for (const s of started) if (s.status === "rejected") throw s.reason
    for (const [workload, file] of files) {
      const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).slice(0, 60)
      let compared = 0
      let earlierDiffers = 0
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
        // an earlier tree (--compare) answers with its own parser: it must answer 200, its answers are counted apart
        const current = answers.filter((_, i) => targets[i] !== "earlier")
        if (current.some((a) => a.text !== current[0]!.text)) fail(`${workload}: the answers differ:\n  ${named}`)
        if (answers.some((a, i) => targets[i] === "earlier" && a.text !== current[0]!.text)) earlierDiffers++
        compared++
      }
      const identical = targets.filter((target) => target !== "earlier").join(", ")
      const earlier = targets.includes("earlier") ? `; the earlier tree's differ in ${earlierDiffers}` : ""
      console.log(`check ${workload}: ${compared} answers identical in ${identical}${earlier}`)
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
}
