/**
 * `bun bench/ab.ts REV [wage|parse] [trials]`: this tree's service against the one at git revision REV, both
 * started in this process (REV's `src/` is extracted into bench/results/ab-REV/ so it resolves the same
 * node_modules) and driven through `server.fetch()` in alternating trials (`bench/inprocess.ts`). Prints the CPU
 * time a request took (min, p25, median over the trials).
 * The request log goes to stdout: send it to /dev/null; results go to stderr. See bench/README.md.
 */
import { mkdirSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { ManagedRuntime } from "effect"
import { alternate, captureServers, KEY, type Kind, load, report, type Served } from "./inprocess.ts"

const ROOT = resolve(import.meta.dir, "..")
const [rev, kindArg, trialsArg] = process.argv.slice(2)
if (rev === undefined) {
  process.stderr.write("Usage: bun bench/ab.ts REV [wage|parse] [trials]\n")
  process.exit(2)
}
const kind: Kind = kindArg === "parse" ? "parse" : "wage"
const trials = Number(trialsArg ?? 30)

const extracted = join(ROOT, "bench", "results", `ab-${rev.replace(/[^\w.-]/g, "_")}`)
rmSync(extracted, { recursive: true, force: true })
mkdirSync(extracted, { recursive: true })
const archive = Bun.spawnSync(["sh", "-c", `git archive "$0" src | tar -x -C "$1"`, rev, extracted], { cwd: ROOT })
if (archive.exitCode !== 0) {
  process.stderr.write(`could not extract ${rev}: ${archive.stderr.toString()}`)
  process.exit(2)
}

const servers = captureServers()
process.env.API_KEYS = KEY
process.env.RATE_LIMIT_PER_MINUTE = "1000000000"
process.env.PORT = "0"
const start = async (src: string): Promise<Served> => {
  const { ServerLive } = await import(join(src, "Server.ts"))
  await ManagedRuntime.make(ServerLive).runtime()
  return servers[servers.length - 1]!
}
const targets = [
  [rev, await start(join(extracted, "src"))],
  ["this tree", await start(join(ROOT, "src"))]
] as const

for (const [, server] of targets) await load(server, kind, 8_000) // warm-up: the JIT settles
report(kind, trials, await alternate(targets, kind, trials))
process.exit(0)
