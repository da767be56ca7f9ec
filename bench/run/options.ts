/** The options of `bun run bench` (bench/run.ts), their defaults and their usage text. */
import { resolve } from "node:path"
import { count, envPair, fail, type Handler, parseFlags, positive } from "../lib/args.ts"
import { type Workload, WORKLOADS } from "../workloads.ts"

export const TARGET_NAMES = ["baseline", "floor", "service", "earlier"] as const
export type Target = (typeof TARGET_NAMES)[number]

export const USAGE = `Usage: bun run bench [-- options]

  --workload a,b      ua-mix, ua-cold, wage, ua-batch, startup (default: all five)
  --duration S        seconds measured per run (default 10)
  --warmup S          seconds of load before each measured run, not counted (default 5: the JIT settles in ~4)
  --rounds N          runs of each target per workload, in alternating order (default 1)
  --connections N     wrk connections (default 32)
  --threads N         wrk threads (default 1: the other core is the server's)
  --only T            run one target: service, baseline or floor
  --no-floor          leave out the floor (bench/floor.ts: a minimal Effect HttpApi with the same endpoints)
  --binary PATH       measure this compiled binary as the service instead of \`bun src/main.ts\`
  --env NAME=VALUE    extra environment for the service (repeatable), e.g. --env WORKERS=2 --env REDIS_URL=...
  --compare DIR       also measure the service of another checkout (\`git worktree add DIR REV\`, then
                      \`bun install\` there) as the target "earlier", side by side in the same run
  --logs DIR          keep each server's stdout (its request log) in DIR (default: a temporary folder, deleted
                      after the run: the log is always written to a file, as deployments write it)
  --startup-runs N    starts measured per target for the startup workload (default 5)
  --json PATH         also write the results as JSON
  --profile DIR       run each target under \`bun --cpu-prof --cpu-prof-md\`: a profile a run in DIR/<target>, as .cpuprofile
                      (summarise it with \`bun bench/profile.ts FILE\`) and as markdown
`

export interface Options {
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
  compare: string | undefined
  startupRuns: number
  json: string | undefined
  profile: string | undefined
}

export const parseOptions = (argv: ReadonlyArray<string>): Options => {
  // in this order in the --json output, as before the split into files
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
    compare: undefined,
    startupRuns: 5,
    json: undefined,
    profile: undefined
  }
  const workloads: Handler = (value) => {
    const names = value().split(",")
    for (const name of names) {
      if (name !== "startup" && !(WORKLOADS as ReadonlyArray<string>).includes(name)) {
        fail(`unknown workload ${name}; choose from ${[...WORKLOADS, "startup"].join(", ")}`)
      }
    }
    options.workloads = names as Options["workloads"]
  }
  parseFlags(argv, USAGE, {
    "--workload": workloads,
    "--workloads": workloads,
    "--duration": (value, flag) => (options.duration = positive(flag, value())),
    "--warmup": (value) => (options.warmup = Number(value())),
    "--rounds": (value, flag) => (options.rounds = count(flag, value())),
    "--connections": (value, flag) => (options.connections = count(flag, value())),
    "--threads": (value, flag) => (options.threads = count(flag, value())),
    "--only": (value) => {
      const target = value()
      if (!(TARGET_NAMES as ReadonlyArray<string>).includes(target)) fail("--only takes service, baseline or floor")
      if (target === "earlier") fail("--only earlier: use --compare DIR")
      options.only = target as Target
    },
    "--no-floor": () => (options.floor = false),
    "--binary": (value) => (options.binary = resolve(value())),
    "--env": (value) => {
      const [name, envValue] = envPair(value())
      options.env[name] = envValue
    },
    "--logs": (value) => (options.logs = resolve(value())),
    "--compare": (value) => (options.compare = resolve(value())),
    "--startup-runs": (value, flag) => (options.startupRuns = count(flag, value())),
    "--json": (value) => (options.json = resolve(value())),
    "--profile": (value) => (options.profile = resolve(value()))
  })
  return options
}
