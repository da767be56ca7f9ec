/**
 * An access log in nginx's default combined format, made from the bench's own user agents (`workloads.ts`), for
 * `bench/cli.ts` and for trying the command by hand. Never committed: written where asked, at run time.
 * - mix: ua-mix's strings, drawn by real-traffic weight (popular ones repeat, so the parse cache answers most lines);
 * - cold: ua-cold's 20,000 distinct strings cycled (more than the cache holds: every line is a parse).
 * One line in 100 has no user agent (`-`), as real logs do.
 *
 *   bun bench/accessLog.ts [--lines N] [--cold] FILE
 */
import { createWriteStream } from "node:fs"
import { count, fail, main, parseFlags } from "./lib/args.ts"
import { requestLines } from "./workloads.ts"

/** The user agents of a workload's parse requests, in the workload's order. */
const userAgents = (workload: "ua-mix" | "ua-cold"): Array<string> =>
  requestLines(workload).flatMap((line) => {
    const body = JSON.parse(line.split("\t")[1]!) as { operation: string; userAgent?: string }
    return body.operation === "parse" && body.userAgent !== undefined ? [body.userAgent] : []
  })

/** As nginx writes it: `"` and `\` inside a quoted field escaped. */
const quoted = (text: string) => `"${text.replace(/["\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`)}"`

export const writeLog = async (path: string, workload: "ua-mix" | "ua-cold", lines: number) => {
  const agents = userAgents(workload)
  const out = createWriteStream(path)
  for (let i = 0; i < lines; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
    const agent = quoted(i % 100 === 99 ? "-" : agents[i % agents.length]!)
    const line = `${ip} - - [26/Nov/2026:12:00:${String(i % 60).padStart(2, "0")} +0000] "GET /page/${i % 997} HTTP/1.1" 200 ${512 + (i % 4096)} "https://example.com/" ${agent}\n`
    if (!out.write(line)) await new Promise((resolve) => out.once("drain", resolve))
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
}

if (import.meta.main) {
  const usage = "bun bench/accessLog.ts [--lines N] [--cold] FILE\n"
  const options = { lines: 1_000_000, cold: false, path: undefined as string | undefined }
  parseFlags(
    process.argv.slice(2),
    usage,
    {
      "--lines": (value, flag) => (options.lines = count(flag, value())),
      "--cold": () => (options.cold = true)
    },
    (path) => (options.path = path)
  )
  await main(() =>
    writeLog(
      options.path ?? fail(`name the file to write\n${usage}`),
      options.cold ? "ua-cold" : "ua-mix",
      options.lines
    )
  )
}
