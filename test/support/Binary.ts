/**
 * The compiled binary, for tests that run it: `$TOOLS_API_BINARY` when set (CI builds `dist/tools-api` before the
 * tests and exports it), otherwise built once per test run into a temporary folder and removed at exit.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const build = async (): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-binary-"))
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
  const outfile = join(dir, "tools-api")
  const proc = Bun.spawn([process.execPath, "build", "src/main.ts", "--compile", "--outfile", outfile], {
    stdout: "pipe",
    stderr: "pipe"
  })
  if ((await proc.exited) !== 0) throw new Error(`bun build failed: ${await new Response(proc.stderr).text()}`)
  return outfile
}

// Kept on globalThis, so every test file of one `bun test` run shares one build.
const shared = globalThis as { toolsApiBinary?: Promise<string> }

export const binary = (): Promise<string> => {
  const given = process.env.TOOLS_API_BINARY
  if (given !== undefined && given !== "") return Promise.resolve(given)
  shared.toolsApiBinary ??= build()
  return shared.toolsApiBinary
}
