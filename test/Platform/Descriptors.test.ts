/**
 * The descriptor limit: raised from soft to hard at start and logged, in this process and in a real one started
 * with a low soft limit; and what a full descriptor table does to the service: it stops accepting (so /health goes
 * unanswered) until the idle timeout closes the idle connections that fill it.
 */
import { afterAll, describe, expect, test } from "bun:test"
import { dlopen, FFIType } from "bun:ffi"
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { raiseDescriptorLimit } from "../../src/Platform/Descriptors.ts"
import { openFileLimits } from "../support/Limits.ts"
import { until } from "../support/Poll.ts"
import { start } from "../support/Process.ts"

const dir = mkdtempSync(join(tmpdir(), "tools-api-ulimit-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** An executable that runs the service from source after `ulimit` with these arguments. */
const withLimit = (ulimit: string) => {
  const path = join(dir, `serve${ulimit.replace(/\W/g, "")}`)
  writeFileSync(path, `#!/bin/sh\nulimit ${ulimit} || exit 3\nexec "${process.execPath}" src/main.ts\n`)
  chmodSync(path, 0o755)
  return path
}

const health = (base: string) =>
  fetch(`${base}/health`, { keepalive: false, signal: AbortSignal.timeout(1_000) }).then(
    (response) => response.status,
    () => "no answer"
  )

describe("the descriptor limit", () => {
  test("raiseDescriptorLimit lifts a lowered soft limit to the hard one", () => {
    const libc = dlopen("libc.so.6", { setrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } })
    const [, hard] = openFileLimits("self")
    try {
      expect(libc.symbols.setrlimit(7, new BigUint64Array([BigInt(hard! - 100), BigInt(hard!)]))).toBe(0)
      expect(openFileLimits("self")).toEqual([hard! - 100, hard!])
      expect(raiseDescriptorLimit()).toEqual({ soft: hard!, hard: hard! })
      expect(openFileLimits("self")).toEqual([hard!, hard!])
    } finally {
      libc.close()
    }
  })

  test("a process started with a soft limit of 256 serves with the hard one, and logs both first", async () => {
    const [, hard] = openFileLimits("self")
    const running = await start({ API_KEYS: "descriptors-test-key-0001" }, withLimit("-Sn 256"))
    try {
      const [first] = running.stdout().split("\n")
      expect(first).toContain(`"message":"File descriptors: soft limit ${hard}, hard limit ${hard}"`)
      expect(openFileLimits(running.proc.pid)).toEqual([hard!, hard!])
    } finally {
      expect(await running.stop()).toBe(0)
    }
  }, 30_000)

  test("a full table: no new connection is served until the idle timeout closes the idle ones", async () => {
    const env = { API_KEYS: "descriptors-test-key-0001", IDLE_TIMEOUT_SECONDS: "2" }
    const running = await start(env, withLimit("-n 100"))
    const sockets: Array<Socket> = []
    try {
      expect(running.stdout()).toContain("soft limit 100, hard limit 100")
      expect(await health(running.base)).toBe(200)
      // one client, 150 keep-alive connections that each send a request and then sit idle
      await Promise.all(
        Array.from(
          { length: 150 },
          () =>
            new Promise<void>((resolve) => {
              const socket = connect(running.port, "127.0.0.1", () => {
                socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                resolve()
              })
              socket.on("error", () => resolve()).on("data", () => {})
              sockets.push(socket)
            })
        )
      )
      const full = Date.now()
      expect(await health(running.base)).toBe("no answer")
      await until(async () => (await health(running.base)) === 200, 10_000)
      const recovered = Date.now() - full
      expect(recovered).toBeGreaterThanOrEqual(1_000)
    } finally {
      for (const socket of sockets) socket.destroy()
      expect(await running.stop()).toBe(0)
    }
  }, 30_000)
})
