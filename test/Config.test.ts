/**
 * Configuration as a real process reads it: every variable's bad values stop the start with exit code 1 and exactly
 * one line on stderr naming the variable, before anything listens. The compiled binary reads the same.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MAX_KEYS_FILE_BYTES } from "../src/Services/FinishedFile.ts"
import { binary } from "./support/Binary.ts"
import { runOnce } from "./support/Process.ts"
import { spawn } from "./support/Started.ts"

// Each test starts real processes: more than bun test's 5 s on a loaded machine.
setDefaultTimeout(30_000)

const KEY = "config-test-key-number-1"
const dir = mkdtempSync(join(tmpdir(), "tools-api-config-"))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
mkdirSync(join(dir, "a-directory"))
symlinkSync("/dev/zero", join(dir, "zero"))
Bun.spawnSync(["mkfifo", join(dir, "fifo")])

/** A port something else listens on. */
const occupied = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") })
afterAll(() => {
  occupied.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

const bad: ReadonlyArray<readonly [name: string, value: () => string, extra?: Record<string, string>]> = [
  ["PORT", () => "abc"],
  ["PORT", () => "70000"],
  ["PORT", () => "-1"],
  ["PORT", () => "80.5"],
  ["PORT", () => String(occupied.port), { HOST: "127.0.0.1" }],
  ["HOST", () => "999.1.1.1"],
  ["HOST", () => "not a host name"],
  ["HOST", () => "192.0.2.1"], // TEST-NET-1: an address no machine here has
  ["API_KEYS", () => "кл4"], // a header is Latin-1: no request could carry it
  ["API_KEYS", () => "good-key-number-one,two words"],
  ["API_KEYS", () => "tab\tkey"],
  ["API_KEYS_FILE", () => file("noted.txt", "good-key-number-one\nkey # a note on the key's line\n")],
  ["API_KEYS_FILE", () => file("latin.txt", "clé\n")],
  ["API_KEYS_FILE", () => join(dir, "missing.txt")],
  ["API_KEYS_FILE", () => join(dir, "a-directory")],
  ["API_KEYS_FILE", () => join(dir, "zero")], // a symlink to /dev/zero: refused, not read forever
  ["API_KEYS_FILE", () => join(dir, "fifo")], // no writer: refused, not waited on
  ["API_KEYS_FILE", () => file("over-1-MiB.txt", `${KEY}\n${"#".repeat(MAX_KEYS_FILE_BYTES)}\n`)],
  ["API_KEYS_FILE", () => file("short-digest.txt", `good-key\nsha256:${"ab".repeat(31)}\n`)],
  ["API_KEYS_FILE", () => file("not-hex.txt", `sha256:${"zz".repeat(32)}\n`)],
  ["RATE_LIMIT_PER_MINUTE", () => "0"],
  ["RATE_LIMIT_PER_MINUTE", () => "ten"],
  ["RATE_LIMIT_PER_MINUTE", () => "1e3"],
  ["AUTH_FAILURES_PER_MINUTE", () => "-3"],
  ["AUTH_FAILURES_PER_MINUTE", () => "1.5"],
  ["MAX_BODY_BYTES", () => "16k"],
  ["MAX_BODY_BYTES", () => "0"],
  ["MAX_BODY_BYTES", () => String(2 ** 31)],
  ["LOG_LEVEL", () => "loud"],
  ["LOG_FORMAT", () => "xml"],
  ["METRICS", () => "maybe"],
  ["METRICS_PORT", () => "abc"],
  ["METRICS_PORT", () => "65536"],
  ["METRICS_PORT", () => String(occupied.port), { HOST: "127.0.0.1" }],
  // each worker keeps its own metrics: one port apart would show one worker's counts as the whole
  ["METRICS_PORT", () => "0", { WORKERS: "2", REDIS_URL: "redis://127.0.0.1:1" }],
  ["METRICS_HOST", () => "127.0.0.1"], // without METRICS_PORT it moves nothing
  ["METRICS_HOST", () => "192.0.2.1", { METRICS_PORT: "0", HOST: "127.0.0.1" }],
  ["TRUST_PROXY", () => "2"],
  ["WORKERS", () => "0"],
  ["WORKERS", () => "many"],
  ["UA_CACHE_SIZE", () => "-1"],
  ["UA_CACHE_SIZE", () => "lots"],
  ["IDLE_TIMEOUT_SECONDS", () => "0"],
  ["IDLE_TIMEOUT_SECONDS", () => "256"],
  ["IDLE_TIMEOUT_SECONDS", () => "30s"],
  ["OTEL_EXPORTER_OTLP_ENDPOINT", () => "collector:4318"],
  ["OTEL_EXPORTER_OTLP_ENDPOINT", () => "not a url"],
  ["OTEL_EXPORTER_OTLP_HEADERS", () => "token", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }],
  ["OTEL_TRACES_EXPORTER", () => "jaeger", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }],
  ["OTEL_EXPORTER_OTLP_PROTOCOL", () => "grpc", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }],
  ["OTEL_EXPORTER_OTLP_TIMEOUT", () => "10s", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }]
]

const expectOneLineNaming = (name: string, result: { code: number; stdout: string; stderr: string }) => {
  expect(result.code).toBe(1)
  const lines = result.stderr.trimEnd().split("\n")
  expect(lines).toHaveLength(1)
  expect(lines[0]).toStartWith("tools-api: ")
  expect(lines[0]).toContain(name)
  expect(result.stdout).not.toContain("Listening")
}

const byVariable = new Map<string, Array<(typeof bad)[number]>>()
for (const entry of bad) byVariable.set(entry[0], [...(byVariable.get(entry[0]) ?? []), entry])

// The binary is what is deployed, and starts in a quarter of the time: every bad value runs against it.
describe("a bad value stops the compiled binary: exit 1, one line on stderr naming the variable", () => {
  for (const [name, cases] of byVariable) {
    test(`${name}: ${cases.map(([, value]) => JSON.stringify(value()).slice(0, 40)).join(", ")}`, async () => {
      const program = await binary()
      const results = await Promise.all(
        cases.map(([, value, extra]) => runOnce({ API_KEYS: KEY, PORT: "0", ...extra, [name]: value() }, [], program))
      )
      for (const result of results) expectOneLineNaming(name, result)
    }, 30_000)
  }
})

describe("from source, the same", () => {
  for (const [name, value] of [
    ["PORT", "abc"],
    ["HOST", "999.1.1.1"],
    ["IDLE_TIMEOUT_SECONDS", "0"],
    ["RATE_LIMIT_PER_MINUTE", "0"]
  ] as const) {
    test(`${name}=${JSON.stringify(value)}`, async () => {
      expectOneLineNaming(name, await runOnce({ API_KEYS: KEY, PORT: "0", [name]: value }))
    }, 30_000)
  }

  test("with WORKERS, a key no header can carry stops the start once, naming API_KEYS", async () => {
    const env = { API_KEYS: "кл4", PORT: "0", WORKERS: "2", REDIS_URL: "redis://127.0.0.1:1" }
    const result = await runOnce(env)
    expectOneLineNaming("API_KEYS", result)
    expect(result.stderr).toContain("key 1 of 1 holds a space or a character outside visible ASCII")
    expect(result.stderr).not.toContain("кл4")
  }, 30_000)

  test("with WORKERS, a FIFO as API_KEYS_FILE stops the start once, at once, saying what it is", async () => {
    const env = { API_KEYS_FILE: join(dir, "fifo"), PORT: "0", WORKERS: "2", REDIS_URL: "redis://127.0.0.1:1" }
    const result = await runOnce(env)
    expectOneLineNaming("API_KEYS_FILE", result)
    expect(result.stderr).toContain(
      `${join(dir, "fifo")} could not be read: it is a FIFO (named pipe), not a regular file`
    )
  }, 30_000)

  test("a port in use names PORT and says so", async () => {
    const result = await runOnce({ API_KEYS: KEY, HOST: "127.0.0.1", PORT: String(occupied.port) })
    expectOneLineNaming("PORT", result)
    expect(result.stderr).toContain("in use")
  }, 30_000)
})

describe("empty means the default", () => {
  test("HOST= and IDLE_TIMEOUT_SECONDS= start like unset ones", async () => {
    const proc = spawn([process.execPath, "src/main.ts"], {
      env: { PATH: process.env.PATH ?? "", API_KEYS: KEY, PORT: "0", HOST: "", IDLE_TIMEOUT_SECONDS: "" },
      stdout: "pipe",
      stderr: "pipe"
    })
    const reader = proc.stdout.getReader()
    let printed = ""
    while (!printed.includes("Listening")) {
      const chunk = await reader.read()
      if (chunk.done) break
      printed += new TextDecoder().decode(chunk.value)
    }
    proc.kill("SIGTERM")
    expect(await proc.exited).toBe(0)
    expect(printed).toContain("Listening on http://0.0.0.0:")
  }, 30_000)
})
