/**
 * The service uses Effect's public API only (`effect/http` and `effect/http-api` are `@stability unstable`: what they
 * do not export can change in any release). Each pattern below is a reach into the framework that was once here;
 * the test fails if one comes back anywhere under src/.
 */
import { expect, test } from "bun:test"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"

const SRC = resolve(import.meta.dir, "../src")

const REACHES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\btextEffect\b/, "a request's private body cache (read the body through `request.text`)"],
  [/\.cache\.(span|tracerEnabled)\b|\bfiber\.cache\b/, "the fiber's internal cache (use Effect.currentSpan)"],
  [/\.setContext\(/, "replacing a fiber's context (provide services with Effect.provideService)"],
  [/from "effect\/[\w/-]*internal[\w/-]*"/, "the framework's internal modules"],
  [/Expected a valid JSON body/, "matching the framework's message text (recognise failures by their structure)"],
  [/\bRequestNote\b/, "a mutable per-request note (the caller is CurrentCaller, headers go through the response API)"],
  [
    /readonly (refused|verdict)\b/,
    "a verdict carried in the request between middlewares (each fails for itself; the request carries its body alone)"
  ],
  [/Context\.getUnsafe\(\s*fiber\.context/, "a service read through the fiber (read the context: Effect.contextWith)"]
]

const files = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

test("no source file reaches into the framework's insides", () => {
  const found: Array<string> = []
  for (const file of files(SRC)) {
    const lines = readFileSync(file, "utf8").split("\n")
    lines.forEach((line, index) => {
      for (const [pattern, what] of REACHES) {
        if (pattern.test(line)) found.push(`${relative(SRC, file)}:${index + 1}: ${what}`)
      }
    })
  }
  expect(found).toEqual([])
})

test("the check finds each reach it names (it is not blind)", () => {
  const samples = [
    "(request as any).textEffect = Effect.succeed(text)",
    "const span = fiber.cache.span",
    "fiber.setContext(Context.add(fiber.context, X, x))",
    'import { x } from "effect/http/internal/requestState"',
    'message === "Expected a valid JSON body"',
    "const note = Context.getUnsafe(fiber.context, RequestNote)",
    "readonly refused: InvalidRequest | PayloadTooLarge | undefined",
    "const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)"
  ]
  expect(samples.map((sample) => REACHES.some(([pattern]) => pattern.test(sample)))).toEqual(samples.map(() => true))
})
