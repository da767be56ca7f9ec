/** docs/OPERATIONS.md names every file `bun run build` writes, and every metric only it documents. */
import { expect, test } from "bun:test"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { spawn } from "./support/Started.ts"

const ROOT = resolve(import.meta.dir, "..")
const operations = readFileSync(join(ROOT, "docs/OPERATIONS.md"), "utf8")
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))

test("every file `bun run build` writes into dist/ is described, with what it is for", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-build-"))
  try {
    // the build script itself, its output moved to a folder of this test's own
    const args = (manifest.scripts.build as string).split(" ").slice(1)
    const outfile = args.indexOf("--outfile") + 1
    expect(args[outfile]).toBe("dist/tools-api")
    args[outfile] = join(dir, "tools-api")
    const build = spawn([process.execPath, ...args], { cwd: ROOT, stdout: "ignore", stderr: "pipe" })
    expect(await build.exited).toBe(0)
    const written = readdirSync(dir).sort()
    expect(written).toContain("tools-api")
    for (const name of written) expect(operations).toContain(`\`dist/${name}\`: `)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)

test("the metric of dropped log lines is documented", () => {
  expect(operations).toContain("`log_lines_dropped_total`")
})
