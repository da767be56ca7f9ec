/**
 * What the service does when one client fills its descriptor table with idle keep-alive connections (Linux: reads
 * /proc and `ss`). Starts `bun src/main.ts` under `ulimit -n LIMIT`, opens LIMIT + EXTRA connections that each send
 * one request and sit idle, then reports the server's CPU and whether /health answers; then either closes them
 * (default) or, with WAIT=1, keeps them and reports when /health answers again (the idle timeout, IDLE seconds).
 *
 *   bun bench/descriptors.ts                                  # LIMIT=300 EXTRA=100 IDLE=30
 *   LIMIT=5000 EXTRA=500 WAIT=1 bun bench/descriptors.ts
 */
import { readdirSync, readFileSync } from "node:fs"
import { connect, type Socket } from "node:net"

const LIMIT = Number(process.env.LIMIT ?? 300)
const EXTRA = Number(process.env.EXTRA ?? 100)
const env = {
  ...process.env,
  PORT: "0",
  HOST: "127.0.0.1",
  API_KEYS: "descriptors-bench-key-0001",
  IDLE_TIMEOUT_SECONDS: process.env.IDLE ?? "30"
}
const server = Bun.spawn(["sh", "-c", `ulimit -n ${LIMIT}; exec "${process.execPath}" src/main.ts`], {
  env,
  stdout: "pipe",
  stderr: "inherit"
})
const reader = server.stdout.getReader()
let out = ""
while (!/Listening on http:\/\/[^:]+:\d+/.test(out)) out += new TextDecoder().decode((await reader.read()).value)
const port = Number(/Listening on http:\/\/[^:]+:(\d+)/.exec(out)![1])
void (async () => {
  while (!(await reader.read()).done); // keep the pipe drained
})()

const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const descriptors = () => readdirSync(`/proc/${server.pid}/fd`).length
const health = async () => {
  const started = performance.now()
  const ms = () => `${(performance.now() - started).toFixed(0)} ms`
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, {
      keepalive: false,
      signal: AbortSignal.timeout(2_000)
    })
    return `${response.status} in ${ms()}`
  } catch {
    return `no answer in ${ms()}`
  }
}
const waitFor200 = async (since: number) => {
  let answer = await health()
  while (!answer.startsWith("200") && Date.now() - since < 120_000) answer = await health()
  return `${answer}, ${Date.now() - since} ms after`
}

console.log(`limit ${LIMIT}; /health ${await health()}`)
const sockets: Array<Socket> = []
await Promise.all(
  Array.from(
    { length: LIMIT + EXTRA },
    () =>
      new Promise<void>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
          resolve()
        })
        socket.on("error", () => resolve()).on("data", () => {})
        sockets.push(socket)
      })
  )
)
const full = Date.now()
if (process.env.WAIT !== undefined) {
  console.log(`client keeps ${sockets.length} connections: /health ${await waitFor200(full)} the table filled`)
} else {
  await Bun.sleep(1_000)
  const before = cpuSeconds()
  await Bun.sleep(3_000)
  console.log(`${sockets.length} connections, server descriptors ${descriptors()}`)
  console.log(`server CPU while full: ${(((cpuSeconds() - before) / 3) * 100).toFixed(0)} % of a core`)
  console.log(`/health while full: ${await health()}`)
  const closed = Date.now()
  for (const socket of sockets) socket.destroy()
  console.log(`client closed: /health ${await waitFor200(closed)} the client closed`)
}
for (const socket of sockets) socket.destroy()
server.kill("SIGTERM")
await server.exited
