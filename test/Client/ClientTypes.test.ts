/**
 * What tsc allows in calls of the Effect client (HttpApiClient over src/Api.ts): the wage payload is one form or
 * the other, so `{}` and both fields are type errors, as they are in the openapi-typescript types. The calls are
 * compiled by tsc here, so `bun test` fails if the payload type ever accepts them again.
 */
import { describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "../..")

const CALLS = `import { BigDecimal, Effect } from "effect"
import { HttpApiClient } from "effect/http-api"
import { ToolsApi } from "${ROOT}/src/Api.ts"
import type { RateLimited } from "${ROOT}/src/Errors.ts"

export const calls = Effect.gen(function* () {
  const client = yield* HttpApiClient.make(ToolsApi, { baseUrl: "http://localhost:3000" })
  yield* client.wageEstimator({ payload: { hourlyWage: BigDecimal.fromStringUnsafe("25") } })
  yield* client.wageEstimator({ payload: { annualSalary: BigDecimal.fromStringUnsafe("50000") } })
  // @ts-expect-error neither field
  yield* client.wageEstimator({ payload: {} })
  // @ts-expect-error both fields
  yield* client.wageEstimator({ payload: { hourlyWage: BigDecimal.fromStringUnsafe("25"), annualSalary: BigDecimal.fromStringUnsafe("50000") } })
  // @ts-expect-error a string is not an amount: an amount is an exact decimal
  yield* client.wageEstimator({ payload: { hourlyWage: "25" } })
  // @ts-expect-error nor is a float, which could not carry 1.00499999999999999999 as written
  yield* client.wageEstimator({ payload: { hourlyWage: 25 } })
  yield* client.userAgentParser({ payload: { operation: "generate" } })
  yield* client.userAgentParser({ payload: { operation: "generate", count: 5, seed: 1 } })
  yield* client.userAgentParser({ payload: { operation: "parse", userAgents: ["curl/8.5.0"] } })
  // @ts-expect-error userAgent and userAgents both
  yield* client.userAgentParser({ payload: { operation: "parse", userAgent: "a", userAgents: ["b"] } })
  // @ts-expect-error a count is a number
  yield* client.userAgentParser({ payload: { operation: "generate", count: "5" } })
  // @ts-expect-error not an operation
  yield* client.userAgentParser({ payload: { operation: "guess" } })
})

declare const limited: RateLimited
export const retry: number = limited.retryAfterSeconds
`

describe("HttpApiClient's types", () => {
  test("tsc accepts either wage form and rejects {}, both fields and an amount that is not a decimal", () => {
    // inside node_modules, so the file resolves "effect" as the project does, and outside tsc -p . and prettier
    const dir = join(ROOT, "node_modules", ".cache", `client-types-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    try {
      writeFileSync(join(dir, "calls.ts"), CALLS)
      const config = { extends: join(ROOT, "tsconfig.json"), include: [], files: ["calls.ts"] }
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config))
      const checked = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "tsc"), "-p", dir])
      // an unused @ts-expect-error is itself an error: each refused call above must really be refused
      expect(checked.stdout.toString()).toBe("")
      expect(checked.exitCode).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
