/**
 * A client generated from /openapi.json by openapi-typescript type-checks calls of both endpoints, and rejects a
 * wage request with neither field or both: the document is usable by generators, not only valid.
 */
import { describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "../..")
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name)

const CALLS = `import type { components, paths } from "./api"

type UserAgents = paths["/v1/tools/user-agent-parser"]["post"]
type Wages = paths["/v1/tools/wage-estimator"]["post"]
type UserAgentBody = UserAgents["requestBody"]["content"]["application/json"]
type WageBody = Wages["requestBody"]["content"]["application/json"]

const parse: UserAgentBody = { operation: "parse", userAgent: "Mozilla/5.0" }
const generate: UserAgentBody = { operation: "generate", browser: "Firefox", seed: 7 }
const parseMany: UserAgentBody = { operation: "parse", userAgents: ["Mozilla/5.0", "curl/8.5.0"] }
const generateMany: UserAgentBody = { operation: "generate", count: 3, seed: 7 }
const hourly: WageBody = { hourlyWage: 25 }
const annual: WageBody = { annualSalary: 50000 }
// @ts-expect-error neither field
const neither: WageBody = {}
// @ts-expect-error both fields
const both: WageBody = { hourlyWage: 25, annualSalary: 50000 }
// @ts-expect-error not an operation
const wrong: UserAgentBody = { operation: "guess" }

declare const answer: Wages["responses"][200]["content"]["application/json"]
const monthly: number = answer.estimates.monthly
declare const parsed: UserAgents["responses"][200]["content"]["application/json"]
// one result, or an array of them for userAgents or count
const one = Array.isArray(parsed.data) ? parsed.data[0]! : parsed.data
const device: components["schemas"]["DeviceType"] = one.device.type
const deviceName: string = one.device.name
declare const limited: paths["/v1/tools/wage-estimator"]["post"]["responses"][429]
const retry: number = limited.content["application/json"].error.retryAfterSeconds
const retryHeader: number | undefined = limited.headers["Retry-After"]

export const used = [parse, generate, parseMany, generateMany, hourly, annual, neither, both, wrong, monthly, device, deviceName, retry, retryHeader]
`

describe("openapi-typescript", () => {
  test("generates types from the served document under which calls of both endpoints type-check", () => {
    const dir = mkdtempSync(join(tmpdir(), "tools-api-client-"))
    try {
      const document = join(dir, "openapi.json")
      const build = Bun.spawnSync([process.execPath, join(ROOT, "scripts", "openapi.ts"), document])
      expect(build.exitCode).toBe(0)
      const generated = Bun.spawnSync([bin("openapi-typescript"), document, "-o", join(dir, "api.d.ts")])
      expect(generated.stderr.toString()).not.toMatch(/error/i)
      expect(generated.exitCode).toBe(0)
      writeFileSync(join(dir, "calls.ts"), CALLS)
      const compilerOptions = {
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        types: [],
        target: "ES2022"
      }
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["calls.ts"] }))
      const checked = Bun.spawnSync([bin("tsc"), "-p", dir])
      expect(checked.stdout.toString()).toBe("")
      expect(checked.exitCode).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000) // two tsc runs in child processes: seconds on a busy 2-core machine
})
