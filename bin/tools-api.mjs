#!/usr/bin/env node
// `npx tools-api …` in a clone, after the install: src/main.ts's command line, run by the pinned Bun the install
// brought, with its output, signals and exit status passed through unchanged.
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { constants } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const bun = join(dirname(createRequire(import.meta.url).resolve("bun/package.json")), "bin", "bun.exe")
const main = fileURLToPath(new URL("../src/main.ts", import.meta.url))
const child = spawn(bun, [main, ...process.argv.slice(2)], { stdio: "inherit" })
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal))
child.on("error", (error) => {
  process.stderr.write(`tools-api: could not run Bun (${error.message}): run npm install first\n`)
  process.exit(1)
})
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)))
