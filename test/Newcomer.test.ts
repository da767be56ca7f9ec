/**
 * What a newcomer meets before the code: the README's links lead to files of this repository, the Node version it
 * names is the one `engines` declares and every installed package accepts, npm runs exactly one install script
 * (Bun's), a test that needs redis-server says how to get it when it is missing, `npm start` stops the service when
 * it is stopped, and the README stays one page.
 */
import { describe, expect, test } from "bun:test"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { until } from "./support/Poll.ts"

const ROOT = resolve(import.meta.dir, "..")
const readme = readFileSync(join(ROOT, "README.md"), "utf8")
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))

/** Every installed package's manifest, nested node_modules included. */
const installed = (dir = join(ROOT, "node_modules")): Array<{ name: string; version: string; json: any }> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name.startsWith(".")) return []
    const path = join(dir, entry.name)
    if (entry.name.startsWith("@")) return installed(path)
    const file = join(path, "package.json")
    if (!existsSync(file)) return []
    const json = JSON.parse(readFileSync(file, "utf8"))
    const nested = existsSync(join(path, "node_modules")) ? installed(join(path, "node_modules")) : []
    return [{ name: json.name as string, version: json.version as string, json }, ...nested]
  })

describe("the README", () => {
  test("links only to files this repository has (a clone has nothing beside it)", () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map(([, target]) => target!)
    const local = targets.filter((target) => !/^[a-z]+:/.test(target))
    expect(local).toContain("docs/API.md")
    for (const target of local) {
      // inside the repository: this machine may have ../shared beside it, a clone does not
      const path = resolve(ROOT, target)
      expect({ target, inside: path.startsWith(`${ROOT}/`), exists: existsSync(path) }).toEqual({
        target,
        inside: true,
        exists: true
      })
    }
  })

  test("its install is bun.lock's exact versions through the pinned Bun, the very line CI runs", () => {
    const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Using it"))
    const install = `npx --yes bun@${manifest.dependencies.bun} install --frozen-lockfile`
    expect(quickStart.split("\n")).toContain(install)
    expect(readFileSync(join(ROOT, ".ci/run"), "utf8")).toContain(
      "grep -m1 -E '^npx --yes bun@[0-9.]+ install --frozen-lockfile$' README.md"
    )
  })

  test("`npx tools-api` in the clone runs the command line with the pinned Bun: its output alone, its exit status", () => {
    expect(manifest.bin).toEqual({ "tools-api": "bin/tools-api.mjs" })
    const run = (args: Array<string>) => Bun.spawnSync(["npx", "--no-install", "tools-api", ...args], { cwd: ROOT })
    const ok = run(["wage", "--annual", "50000"])
    expect(ok.exitCode).toBe(0)
    expect(JSON.parse(ok.stdout.toString()).estimates.monthly).toBe(4166.67)
    const refused = run(["wage"])
    expect(refused.exitCode).toBe(1)
    expect(refused.stdout.toString()).toBe("")
    expect(JSON.parse(refused.stderr.toString()).error.message).toBe("Give --hourly or --annual")
  }, 60_000)

  test("is a newcomer's page of at most 200 lines (operators' detail is in docs/)", () => {
    expect(readme.split("\n").length - (readme.endsWith("\n") ? 1 : 0)).toBeLessThanOrEqual(200)
  })

  test("its quick start says npm test needs redis-server, and how to get it", () => {
    const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Using it"))
    expect(quickStart).toContain("redis-server")
    expect(quickStart).toContain("apt-get install -y redis-server")
  })
})

describe("Node and npm", () => {
  const range = manifest.engines?.node as string
  const lowest = /(\d+\.\d+\.\d+)/.exec(range)?.[1] ?? "none"

  test("engines names the Node version the README names, and this machine's Node 20 is within it", () => {
    expect(range).toBe("^20.19.0 || >=22.12.0")
    expect(readme).toContain("Node.js 20.19 or later")
    for (const version of ["20.19.0", "20.20.2", "22.12.0", "24.0.0"])
      expect(Bun.semver.satisfies(version, range)).toBe(true)
    for (const version of ["18.20.0", "20.18.0", "22.11.0"]) expect(Bun.semver.satisfies(version, range)).toBe(false)
  })

  test("every installed package accepts that Node (no EBADENGINE on install)", () => {
    const refusing = installed()
      .filter(({ json }) => typeof json.engines?.node === "string")
      .filter(({ json }) => !Bun.semver.satisfies(lowest, json.engines.node.replace(/(\d)</g, "$1 <")))
      .map(({ json, name, version }) => `${name}@${version} wants node ${json.engines.node}`)
    expect(refusing).toEqual([])
  })

  test("`npm install --omit=dev && npm start` serves: start's program and every package src/ imports are dependencies", () => {
    const dependencies = Object.keys(manifest.dependencies ?? {})
    const [program] = (manifest.scripts.start as string).replace(/^exec /, "").split(" ")
    expect(dependencies).toContain(program!)
    const transpiler = new Bun.Transpiler({ loader: "ts" })
    const packages = new Set<string>()
    for (const file of new Bun.Glob("src/**/*.ts").scanSync(ROOT)) {
      for (const { path } of transpiler.scanImports(readFileSync(join(ROOT, file), "utf8"))) {
        if (/^(\.|node:|bun:)/.test(path)) continue
        packages.add(path.startsWith("@") ? path.split("/").slice(0, 2).join("/") : path.split("/")[0]!)
      }
    }
    expect([...packages].filter((name) => !dependencies.includes(name))).toEqual([])
  })

  test("allowScripts lets exactly one install script run, Bun's, pinned; every other one is named and denied", () => {
    const allow: Record<string, boolean> = manifest.allowScripts ?? {}
    expect(Object.entries(allow).filter(([, allowed]) => allowed)).toEqual([[`bun@${manifest.dependencies.bun}`, true]])
    const withScripts = installed().filter(({ json }) =>
      ["preinstall", "install", "postinstall"].some((script) => json.scripts?.[script] !== undefined)
    )
    const covered = (name: string, version: string) => `${name}@${version}` in allow || name in allow
    expect(withScripts.filter(({ name, version }) => !covered(name, version)).map(({ name }) => name)).toEqual([])
  })
})

test("without redis-server, a test that needs it says how to install it", () => {
  const bin = mkdtempSync(join(tmpdir(), "tools-api-no-redis-"))
  try {
    symlinkSync(process.execPath, join(bin, "bun"))
    const script = `import { startRedis } from ${JSON.stringify(join(ROOT, "test/support/Redis.ts"))}
await startRedis().then(() => console.log("started"), (error) => console.log(error.message))`
    const run = Bun.spawnSync([process.execPath, "-e", script], { env: { PATH: bin }, cwd: ROOT })
    expect(run.stdout.toString()).toContain("redis-server is not installed")
    expect(run.stdout.toString()).toContain("apt-get install -y redis-server")
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
})

test("without redis-server, `bun test` says how to install it first and once, and nothing else fails for it", () => {
  const bin = mkdtempSync(join(tmpdir(), "tools-api-no-redis-"))
  try {
    symlinkSync(process.execPath, join(bin, "bun"))
    const files = [
      "test/RateLimit/RedisUrl.test.ts",
      "test/RateLimit/RedisStore.test.ts",
      "test/Platform/Supervisor.test.ts"
    ]
    const run = Bun.spawnSync([process.execPath, "test", ...files], { env: { PATH: bin }, cwd: ROOT })
    const output = run.stdout.toString() + run.stderr.toString()
    expect(run.exitCode).not.toBe(0)
    const howTo = [...output.matchAll(/apt-get install -y redis-server/g)].map((match) => match.index)
    expect(howTo.length).toBe(1)
    expect(howTo[0]).toBeLessThan(output.indexOf("(fail)"))
    expect(output).not.toContain("TypeError")
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
}, 30_000)

/** Whether any process of group `group` is left (signal 0 checks without signalling). */
const groupAlive = (group: number) => {
  try {
    process.kill(-group, 0)
    return true
  } catch {
    return false
  }
}

test("`npm start`, the README's start command, stops the service when it is stopped: SIGTERM leaves nothing serving", async () => {
  const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Using it"))
  expect(quickStart).toMatch(/^npm start +#/m)
  // Its own process group, so whatever it starts can be found, and killed if the test fails.
  const npm = Bun.spawn(["npm", "start"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      API_KEYS: "newcomer-start-key-0123"
    },
    stdout: "pipe",
    stderr: "ignore",
    detached: true
  })
  try {
    const output: Array<string> = []
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of npm.stdout) output.push(decoder.decode(chunk, { stream: true }))
    })()
    const address = () => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.join(""))?.[1]
    await until(() => address() !== undefined, 20_000)
    const health = () =>
      fetch(`${address()}/health`, { keepalive: false }).then(
        (response) => response.status,
        () => 0
      )
    await until(async () => (await health()) === 200)

    process.kill(npm.pid, "SIGTERM")
    const code = await npm.exited
    // npm waits for what it started before it exits; a process of its group left behind is still serving
    await until(() => !groupAlive(npm.pid), 2_000).catch(() => undefined)
    expect({ code, processesLeft: groupAlive(npm.pid), health: await health() }).toEqual({
      code: 0,
      processesLeft: false,
      health: 0
    })
  } finally {
    if (groupAlive(npm.pid)) process.kill(-npm.pid, "SIGKILL")
  }
}, 60_000)
