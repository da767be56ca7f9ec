/**
 * What each way of running the binary loads at its start (src/main.ts): a server, or a worker, evaluates nothing of
 * the command line, and an offline command nothing of the server; each part is imported by the path that uses it.
 * Read from the sources' static imports (Bun's own scan), so no timing is involved.
 */
import { expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "..")
const transpiler = new Bun.Transpiler({ loader: "ts" })

/** The project's modules evaluated with `entries`: their static imports, followed; an `import()` is not followed. */
const loadedWith = (...entries: ReadonlyArray<string>): Array<string> => {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const { kind, path } of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (kind === "import-statement" && path.startsWith(".") && path.endsWith(".ts"))
        visit(resolve(dirname(file), path))
    }
  }
  for (const entry of entries) visit(resolve(ROOT, entry))
  return [...seen].map((file) => relative(ROOT, file)).sort()
}

test("serving loads nothing of the command line: no src/Cli module, not its environment", () => {
  const loaded = loadedWith("src/main.ts", "src/Platform/Server.ts")
  expect(loaded).toContain("src/Http.ts")
  expect(loaded.filter((file) => file.startsWith("src/Cli/") || file === "src/Platform/CliEnvironment.ts")).toEqual([])
})

test("an offline command loads nothing of the server: no HTTP application, no server, no OTLP export", () => {
  const loaded = loadedWith("src/main.ts", "src/Cli/index.ts", "src/Platform/CliEnvironment.ts")
  expect(loaded).toContain("src/Cli/Parse.ts")
  const server = ["src/Platform/Server.ts", "src/Platform/BunServer.ts", "src/Http.ts", "src/Observability/Otlp.ts"]
  expect(loaded.filter((file) => server.includes(file))).toEqual([])
})

test("a parse worker thread loads the parser alone: nothing of the server, nor the command line's parts", () => {
  const loaded = loadedWith("src/main.ts", "src/Cli/parse/Thread.ts")
  expect(loaded).toContain("src/Tools/UserAgent/Service.ts")
  const others = [
    "src/Platform/Server.ts",
    "src/Http.ts",
    "src/Cli/index.ts",
    "src/Cli/Parse.ts",
    "src/Platform/CliEnvironment.ts"
  ]
  expect(loaded.filter((file) => others.includes(file))).toEqual([])
})
