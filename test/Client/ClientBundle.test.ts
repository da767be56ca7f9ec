/**
 * What a client that imports the API definition ships: the docs' typed-client example, bundled for the browser,
 * carries the contract (schemas, errors, endpoints) and Effect's client, and no parser, no data set and no server
 * code. The example is taken from the docs as written, so the test follows what a reader copies.
 */
import { afterAll, expect, test } from "bun:test"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "../..")
const DIR = join(ROOT, `.client-bundle-${process.pid}`)
afterAll(() => rmSync(DIR, { recursive: true, force: true }))

/** The first TypeScript block of README (or docs/API.md) that makes a client of `ToolsApi`. */
const example = (): string => {
  for (const file of ["README.md", "docs/API.md"]) {
    const text = readFileSync(join(ROOT, file), "utf8")
    for (const [, code] of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      if (code!.includes("HttpApiClient.make(ToolsApi")) return code!
    }
  }
  throw new Error("no typed-client example in README.md or docs/API.md")
}

/** The project's own modules a bundle holds, as Bun names them in its output (`// src/Api.ts`). */
const sourceModules = (bundle: string): Array<string> =>
  [...new Set([...bundle.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map(([, path]) => path!))].sort()

test("the docs' typed client bundles the contract alone: no parser, no data set, no server code", async () => {
  mkdirSync(DIR, { recursive: true })
  const entry = join(DIR, "client.ts")
  writeFileSync(entry, example().replace(/from "\.\/src\//g, `from "${ROOT}/src/`))
  const built = await Bun.build({ entrypoints: [entry], target: "browser", outdir: join(DIR, "out") })
  expect(built.success).toBe(true)
  // one JavaScript file: no JSON data set or other asset beside it
  expect(built.outputs.map((output) => output.kind)).toEqual(["entry-point"])
  const bundle = await built.outputs[0]!.text()
  const modules = sourceModules(bundle)
  expect(modules).toContain("src/Api.ts")
  for (const path of modules) {
    // the contract: the API, its errors and document, the tools' contracts and schemas, the rate-limit headers' names
    expect({
      path,
      contract:
        /^src\/(Api|ApiDocument|Errors|JsonBody|RateLimit\/Headers|Tools\/(\w+\/(Contract|Families|ClientHints|Schemas|Amount)))\.ts$/.test(
          path
        )
    }).toEqual({ path, contract: true })
  }
  for (const marker of [
    "UAParser",
    "isbot",
    "ioredis",
    "Bun.serve",
    // the generator's traffic data set (user-agents)
    "deviceCategory"
  ]) {
    expect({ marker, found: bundle.includes(marker) }).toEqual({ marker, found: false })
  }
  // Effect's runtime and HTTP client are most of it; the server's parser and data set alone were 5.6 MB
  expect(bundle.length).toBeLessThan(1_000_000)
})
