/**
 * The compiled binary, for tests that run it: `$TOOLS_API_BINARY` when set (CI builds `dist/tools-api` before the
 * tests and exports it), otherwise built once per test run into a temporary folder named after this process.
 * `bun test` runs no exit handlers, so each build first removes the folders of test runs that have ended.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { spawn } from "./Started.ts"

const PREFIX = "tools-api-binary-"

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === "EPERM"
  }
}

const removeEnded = () => {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^tools-api-binary-(\d+)-/.exec(name)?.[1])
    if (Number.isSafeInteger(pid) && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}

const build = async (): Promise<string> => {
  removeEnded()
  const outfile = join(mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`)), "tools-api")
  const proc = spawn(
    [process.execPath, "build", "src/main.ts", "--compile", "--outfile", outfile],
    { stdout: "ignore", stderr: "pipe" },
    "run"
  )
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
