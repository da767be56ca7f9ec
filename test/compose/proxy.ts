/**
 * `bun test/compose/proxy.ts`: compose.yaml's proxy config, deploy/nginx.conf, run by this machine's nginx (.ci/compose
 * installs Debian's) in front of two instances sharing one Redis, all on loopback. A DNS server of this script answers
 * `api` with both instances' addresses, as Docker's does with each replica's; only the addresses differ from the file
 * (resolver, listen port, the instances' port). Prints `ok …` / `not ok …` per check and `proxy: done`. Kept out of
 * `bun test`, so the README's test command needs no nginx.
 */
import type { Subprocess } from "bun"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { until, wageStatus } from "../support/Poll.ts"
import { type Running, start } from "../support/Process.ts"
import { type RedisServer, startRedis } from "../support/Redis.ts"

const ROOT = resolve(import.meta.dir, "../..")
const KEY = "compose-proxy-key-0123456789"
const LIMIT = 5
const INSTANCES = ["127.0.0.1", "127.0.0.2"]

const check = (name: string, ok: boolean, detail = "") =>
  console.log(`${ok ? "ok" : "not ok"} ${name}${ok || detail === "" ? "" : ` (${detail})`}`)

const freePort = () => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/** One DNS answer to `query`: every instance's address for `api` (type A), no such name for anything else. */
const answer = (query: Buffer) => {
  let end = 12
  const labels: Array<string> = []
  while (end < query.length && query[end]! > 0) {
    labels.push(query.subarray(end + 1, end + 1 + query[end]!).toString("latin1"))
    end += 1 + query[end]!
  }
  const question = query.subarray(12, end + 5)
  const known = labels.join(".").toLowerCase() === "api" && query.readUInt16BE(end + 1) === 1
  const header = Buffer.alloc(12)
  query.copy(header, 0, 0, 2)
  header.writeUInt16BE(known ? 0x8180 : 0x8183, 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(known ? INSTANCES.length : 0, 6)
  const records = known
    ? INSTANCES.map((address) => {
        const record = Buffer.alloc(16)
        record.writeUInt16BE(0xc00c, 0)
        record.writeUInt16BE(1, 2)
        record.writeUInt16BE(1, 4)
        record.writeUInt32BE(10, 6)
        record.writeUInt16BE(4, 10)
        address.split(".").forEach((byte, index) => record.writeUInt8(Number(byte), 12 + index))
        return record
      })
    : []
  return Buffer.concat([header, question, ...records])
}

/** deploy/nginx.conf with this machine's addresses for Docker's; each replaced exactly once, or undefined. */
const localConfig = (text: string, dnsPort: number, listenPort: number, apiPort: number) => {
  const swaps: ReadonlyArray<readonly [string, string]> = [
    ["resolver 127.0.0.11 ", `resolver 127.0.0.1:${dnsPort} `],
    ["listen 8080;", `listen 127.0.0.1:${listenPort};`],
    ["http://api:3000;", `http://api:${apiPort};`]
  ]
  if (swaps.some(([from]) => text.split(from).length !== 2)) return undefined
  return swaps.reduce((config, [from, to]) => config.replace(from, to), text)
}

// a health probe's line is at debug (OPERATIONS.md, Logs): the instances run at that level to show them
const requestsServed = (instance: Running) => instance.stdout().split('"path":"/health"').length - 1

const dir = mkdtempSync(join(tmpdir(), "tools-api-proxy-"))
const dns = await Bun.udpSocket({
  hostname: "127.0.0.1",
  socket: { data: (socket, query, port, address) => void socket.send(answer(query), port, address) }
})
const instances: Array<Running> = []
let redis: RedisServer | undefined
let nginx: Subprocess | undefined
try {
  redis = await startRedis()
  const env = {
    API_KEYS: KEY,
    REDIS_URL: redis.url,
    TRUST_PROXY: "true",
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    LOG_LEVEL: "debug"
  }
  instances.push(await start({ ...env, HOST: INSTANCES[0]! }))
  instances.push(await start({ ...env, HOST: INSTANCES[1]!, PORT: String(instances[0]!.port) }))

  const listenPort = freePort()
  const config = localConfig(
    await Bun.file(join(ROOT, "deploy/nginx.conf")).text(),
    dns.port,
    listenPort,
    instances[0]!.port
  )
  check("proxy: deploy/nginx.conf names Docker's DNS, port 8080 and api:3000, once each", config !== undefined)
  writeFileSync(join(dir, "default.conf"), config ?? "")
  // As the nginx image includes it: inside `http`. Temporary files in this folder, not the system's.
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `${kind}_temp_path ${dir}/${kind};`)
  writeFileSync(
    join(dir, "nginx.conf"),
    `daemon off;\npid ${dir}/nginx.pid;\nerror_log stderr warn;\nevents {}\n` +
      `http {\n  access_log off;\n  ${temp.join("\n  ")}\n  include ${dir}/default.conf;\n}\n`
  )
  nginx = Bun.spawn(["nginx", "-p", dir, "-c", join(dir, "nginx.conf")], { stdout: "inherit", stderr: "inherit" })
  const base = `http://127.0.0.1:${listenPort}`
  const health = () =>
    fetch(`${base}/health`, { keepalive: false }).then(
      (response) => response.status,
      () => 0
    )
  await until(async () => (await health()) === 200)

  const statuses: Array<number> = []
  for (let request = 0; request < 10; request++) statuses.push(await health())
  const served = instances.map(requestsServed)
  check(
    "proxy: through one port, requests reach both instances",
    statuses.every((status) => status === 200) && served.every((count) => count > 0),
    `statuses ${statuses.join(",")}, served ${served.join(" and ")}`
  )

  const answers: Array<number> = []
  for (let request = 0; request < LIMIT + 3; request++) answers.push(await wageStatus(base, KEY))
  check(
    `proxy: one limit for both, shared through Redis (${LIMIT} of ${LIMIT + 3} answered 200, the rest 429)`,
    answers.filter((status) => status === 200).length === LIMIT &&
      answers.filter((status) => status === 429).length === 3,
    `statuses ${answers.join(",")}`
  )
  console.log("proxy: done")
} catch (error) {
  check("proxy: ran to its end", false, String(error))
} finally {
  nginx?.kill("SIGQUIT")
  await nginx?.exited
  await Promise.all(instances.map((instance) => instance.stop()))
  await redis?.stop()
  dns.close()
  rmSync(dir, { recursive: true, force: true })
}
