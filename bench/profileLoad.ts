/**
 * `bun --cpu-prof --cpu-prof-dir=DIR bench/profileLoad.ts [wage|parse|cold] [requests] [--floor] > /dev/null`: this tree's
 * application (with --floor, the framework's floor: bench/floorApp.ts) in process (`bench/inprocess.ts`), warmed up with 10,000 requests, then `requests` more (default
 * 80,000); prints the CPU µs a request took on stderr, the figure `bench/profile.ts --us` wants. The request log goes
 * to stdout, as in production: send it to /dev/null.
 */
import { join, resolve } from "node:path"
import { HttpRouter } from "effect/http"
import { application, type Kind, load } from "./inprocess.ts"

const args = process.argv.slice(2)
// --floor: the framework's floor (bench/floorApp.ts) instead of this tree's service, to profile side by side
const floor = args.includes("--floor")
const [kindArg, requestsArg] = args.filter((arg) => arg !== "--floor")
const kind: Kind = kindArg === "parse" || kindArg === "cold" ? kindArg : "wage"
const requests = Number(requestsArg ?? 80_000)

const handler = floor
  ? HttpRouter.toWebHandler((await import("./floorApp.ts")).FloorApp, { disableLogger: true }).handler
  : await application(join(resolve(import.meta.dir, ".."), "src"))
await load(handler, kind, 10_000)
const before = process.cpuUsage()
await load(handler, kind, requests)
const used = process.cpuUsage(before)
process.stderr.write(`${kind}: ${((used.user + used.system) / requests).toFixed(1)} µs CPU a request\n`)
process.exit(0)
