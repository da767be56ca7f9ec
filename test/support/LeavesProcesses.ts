/**
 * Test file run only by test/Cleanup.test.ts, in a child `bun test`: a test that fails with the supervisor and two
 * workers it started serving, and hooks that start a redis-server and a server and never stop them (as a describe
 * whose last test stops what its beforeAll started). Each notes what it started, one JSON line to $STARTED_OUT, for
 * the parent to check that it is gone. (A test that times out is not here: bun kills every process left then.)
 */
import { appendFileSync } from "node:fs"
import { beforeAll, describe, expect, test } from "bun:test"
import { type Running, start } from "./Process.ts"
import { type RedisServer, startRedis } from "./Redis.ts"

const note = (group: number, port: number, pids: Array<number> = []) =>
  appendFileSync(process.env.STARTED_OUT ?? "/dev/null", `${JSON.stringify({ group, port, pids })}\n`)
const workerPids = (stdout: string) =>
  [...stdout.matchAll(/"Worker started".*?"pid":(\d+)/g)].map((match) => Number(match[1]))

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedis()
  redis.client.disconnect()
  note(redis.pid(), redis.port)
})

test("fails with WORKERS=2 serving", async () => {
  const primary = await start({ WORKERS: "2", REDIS_URL: redis.url, API_KEYS: "left-key-0001" }, undefined, 45_000)
  note(primary.proc.pid, primary.port, workerPids(primary.stdout()))
  expect("this test").toBe("failing on purpose, its supervisor not stopped")
}, 60_000)

describe("a server started by a hook, for tests that fail before the last one stops it", () => {
  let server: Running
  beforeAll(async () => {
    server = await start({ API_KEYS: "left-key-0001" }, undefined, 45_000)
    note(server.proc.pid, server.port)
  })
  test("fails", () => {
    expect(server.stdout()).toContain("a line it never prints")
  })
})
