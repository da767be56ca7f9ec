/**
 * `bun bench/ab.ts REV [wage|parse|cold|mix] [trials] [--env NAME=VALUE ...] [--generated DIR]`: this tree's service (with these extra
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
 * The request log goes to stdout: send it to /dev/null; results go to stderr. See bench/README.md.
 */
import { mkdirSync, rmSync, symlinkSync } from "node:fs"
import { join, resolve } from "node:path"
import { HttpRouter } from "effect/http"
import { alternate, application, type Handler, type Kind, load, report } from "./inprocess.ts"

const ROOT = resolve(import.meta.dir, "..")
const args = process.argv.slice(2)
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
    "Usage: bun bench/ab.ts REV [wage|parse|cold|mix] [trials] [--env NAME=VALUE ...] [--generated DIR]\n"
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

const targets = [
  [rev, await other(rev)],
  [
    Object.keys(extraEnv).length === 0 ? "this tree" : "this tree, --env",
    await application(join(ROOT, "src"), extraEnv)
  ]
] as const

for (const [, handler] of targets) await load(handler, kind, 8_000) // warm-up: the JIT settles
report(kind, trials, await alternate(targets, kind, trials))
process.exit(0)
