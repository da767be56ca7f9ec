/**
 * `bun bench/ab.ts REV [wage|parse|cold|mix] [trials] [--env NAME=VALUE ...] [--generated DIR] [--apart]`: this tree's service (with these extra
 * variables, e.g. OTEL_EXPORTER_OTLP_ENDPOINT) against the one at git revision REV (or, with REV `floor`, against the
 * framework's floor, bench/floorApp.ts: what the service's features cost in process), both built
 * in this process as web handlers and driven in alternating trials (`bench/inprocess.ts`). Prints the CPU time a
 * request took (min, p25, median over the trials).
 *
 * Each tree's application is its `src/Http.ts` (`HttpLive`) with its services (`ServicesLive` of
 * `src/Platform/Server.ts`), logger and configuration (`AppConfig.fromEnv`), served by `HttpRouter.toWebHandler`
 * as `src/Platform/BunServer.ts` serves it in `Bun.serve`. REV's `src/` is extracted into bench/results/ab-REV/ so
 * that it resolves this tree's node_modules: both run on the same Effect. A revision from before the port to
 * Effect 4 (no `src/Platform/Server.ts`) needs Effect 3 and cannot share this process; compare it with
 * `bun run bench` in a worktree instead (bench/README.md).
 * `--apart`: each target in processes of its own (a child per target and round of 5 trials, alternating), so the
 * two do not share Effect's compiled code, as two servers do not (bench/README.md, "In process").
 * The request log goes to stdout: send it to /dev/null; results go to stderr. See bench/README.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { HttpRouter } from "effect/http"
import { alternate, application, type Handler, type Kind, load, measure, report } from "./inprocess.ts"

const ROOT = resolve(import.meta.dir, "..")
const args = process.argv.slice(2)
const WARMUP = 8_000 // requests before the trials: the JIT settles
const TRIALS_A_CHILD = 5
const WARMUP_MS_ALONE = 5_000

// --child SRC KIND N ENV OUT: one target in this process, N trials after the warm-up, their CPU a request as JSON in
// OUT (its request log goes to stdout, as the parent's)
if (args[0] === "--child") {
  const [, src = "", childKind = "wage", count = "1", envJson = "{}", out = ""] = args
  const handler = await application(src, JSON.parse(envJson))
  // alone, the JIT compiles this tree's code from nothing: as long a warm-up as `bun run bench` gives a server
  for (const start = performance.now(); performance.now() - start < WARMUP_MS_ALONE;) {
    await load(handler, childKind as Kind, WARMUP)
  }
  const values = []
  for (let i = 0; i < Number(count); i++) values.push(await measure(handler, childKind as Kind))
  await Bun.write(out, JSON.stringify(values))
  process.exit(0)
}
const apartAt = args.indexOf("--apart")
const apart = apartAt !== -1
if (apart) args.splice(apartAt, 1)
// --env NAME=VALUE (repeatable): extra configuration for this tree's application only, e.g. OTLP export
const extraEnv: Record<string, string> = {}
for (let i = args.indexOf("--env"); i !== -1; i = args.indexOf("--env")) {
  const [name = "", ...value] = (args.splice(i, 2)[1] ?? "").split("=")
  extraEnv[name] = value.join("=")
}
// --generated DIR: REV's generated device file, where its format is not this tree's (a382acc's: `bun install` in a
// checkout of it writes one)
const generatedAt = args.indexOf("--generated")
const generated = generatedAt === -1 ? join(ROOT, "generated") : resolve(args.splice(generatedAt, 2)[1] ?? "")
const [rev, kindArg, trialsArg] = args
if (rev === undefined) {
  process.stderr.write(
    "Usage: bun bench/ab.ts REV [wage|parse|cold|mix] [trials] [--env NAME=VALUE ...] [--generated DIR] [--apart]\n"
  )
  process.exit(2)
}
const kind: Kind = kindArg === "parse" || kindArg === "cold" || kindArg === "mix" ? kindArg : "wage"
const trials = Number(trialsArg ?? 30)

const git = (...args: Array<string>) => Bun.spawnSync(["git", ...args], { cwd: ROOT })
/** The other target: the floor (bench/floorApp.ts) in process, or REV's service extracted beside this tree. */
const other = async (rev: string): Promise<Handler> => {
  if (rev === "floor") {
    const { FloorApp } = await import("./floorApp.ts")
    return HttpRouter.toWebHandler(FloorApp, { disableLogger: true }).handler
  }
  return application(await extract(rev))
}

const extract = async (rev: string): Promise<string> => {
  if (git("rev-parse", "--verify", "--quiet", `${rev}^{commit}`).exitCode !== 0) {
    process.stderr.write(`ab: ${rev} is not a revision of this repository\n`)
    process.exit(2)
  }
  if (git("cat-file", "-e", `${rev}:src/Platform/Server.ts`).exitCode !== 0) {
    process.stderr.write(
      `ab: ${rev} has no src/Platform/Server.ts: it is from before the port to Effect 4 and needs Effect 3, which ` +
        `cannot be loaded in this process beside this tree's Effect 4.\n` +
        `Compare it with \`bun run bench\` in a worktree instead:\n` +
        `  git worktree add /tmp/old ${rev} && (cd /tmp/old && bun install --frozen-lockfile && bun run bench)\n`
    )
    process.exit(2)
  }

  const extracted = join(ROOT, "bench", "results", `ab-${rev.replace(/[^\w.-]/g, "_")}`)
  rmSync(extracted, { recursive: true, force: true })
  mkdirSync(extracted, { recursive: true })
  const archive = Bun.spawnSync(["sh", "-c", `git archive "$0" src | tar -x -C "$1"`, rev, extracted], { cwd: ROOT })
  if (archive.exitCode !== 0) {
    process.stderr.write(`ab: could not extract ${rev}: ${archive.stderr.toString()}\n`)
    process.exit(2)
  }
  // src/ reaches node_modules (the user-agents data set) and generated/ (the device database) by relative paths
  symlinkSync(join(ROOT, "node_modules"), join(extracted, "node_modules"))
  symlinkSync(generated, join(extracted, "generated"))
  return join(extracted, "src")
}

const thisTree = Object.keys(extraEnv).length === 0 ? "this tree" : "this tree, --env"

/** Rounds of TRIALS_A_CHILD trials, each target's in a child process of its own, the order alternating. */
const alternateApart = async (): Promise<Map<string, Array<number>>> => {
  if (rev === "floor") {
    process.stderr.write("ab: --apart compares two trees; the floor runs in process only\n")
    process.exit(2)
  }
  const children: ReadonlyArray<readonly [string, string, Record<string, string>]> = [
    [rev, await extract(rev), {}],
    [thisTree, join(ROOT, "src"), extraEnv]
  ]
  const folder = mkdtempSync(join(tmpdir(), "ab-"))
  const out = join(folder, "trials.json")
  const cpu = new Map<string, Array<number>>()
  for (let round = 0; round * TRIALS_A_CHILD < trials; round++) {
    for (const [name, src, env] of round % 2 === 0 ? children : [...children].reverse()) {
      const childArgs = ["--child", src, kind, String(TRIALS_A_CHILD), JSON.stringify(env), out]
      const child = Bun.spawnSync([process.execPath, import.meta.path, ...childArgs], {
        stdout: "inherit",
        stderr: "inherit"
      })
      if (child.exitCode !== 0) process.exit(1)
      const values: Array<number> = JSON.parse(readFileSync(out, "utf8"))
      cpu.set(name, [...(cpu.get(name) ?? []), ...values])
    }
  }
  rmSync(folder, { recursive: true })
  return cpu
}

if (apart) {
  report(kind, trials, await alternateApart())
  process.exit(0)
}

const targets = [
  [rev, await other(rev)],
  [thisTree, await application(join(ROOT, "src"), extraEnv)]
] as const

for (const [, handler] of targets) await load(handler, kind, WARMUP)
report(kind, trials, await alternate(targets, kind, trials))
process.exit(0)
