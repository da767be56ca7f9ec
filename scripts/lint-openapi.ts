/**
 * `bun run lint:openapi`: the OpenAPI document (as scripts/openapi.ts writes it) through @redocly/cli's recommended
 * rules and Spectral's `spectral:oas`; any error or warning from either fails, with each problem printed.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "..")
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name)
const dir = mkdtempSync(join(tmpdir(), "tools-api-openapi-"))
const document = join(dir, "openapi.json")

const run = (command: Array<string>) => {
  const result = Bun.spawnSync(command, { cwd: ROOT, stderr: "pipe" })
  if (result.exitCode !== 0 && result.stdout.length === 0) {
    throw new Error(`${command[0]} failed: ${result.stderr.toString()}`)
  }
  return result.stdout.toString()
}

try {
  run([process.execPath, join(ROOT, "scripts", "openapi.ts"), document])
  const redocly = JSON.parse(run([bin("redocly"), "lint", document, "--config", "redocly.yaml", "--format=json"]))
  const spectral: Array<{ code: string; message: string; path: Array<string>; severity: number }> = JSON.parse(
    run([bin("spectral"), "lint", document, "--ruleset", ".spectral.yaml", "--format", "json", "--quiet"]) || "[]"
  )
  const problems = [
    ...redocly.problems.map(
      (p: any) => `redocly ${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer})`
    ),
    // Spectral severities: 0 error, 1 warning, 2 info, 3 hint
    ...spectral.filter((p) => p.severity <= 1).map((p) => `spectral ${p.code}: ${p.message} (${p.path.join(".")})`)
  ]
  for (const problem of problems) console.log(problem)
  console.log(`openapi lint: ${problems.length} problems (redocly recommended, spectral:oas)`)
  process.exitCode = problems.length === 0 ? 0 : 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
