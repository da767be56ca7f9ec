/**
 * The harness `bench/ab.ts` and `bench/adapter.ts` share: services started in this process are driven through
 * Bun's `server.fetch()` (no sockets, no client process), trial by trial in alternating order, so noise from other
 * work on the machine falls on every target alike. Measures the application and its server adapter, not Bun's
 * HTTP parsing and writing.
 */
export const KEY = "bench-key-0123456789abcdef0123456789"
export const PER_TRIAL = 2_000
export const CONNECTIONS = 32

export type Served = ReturnType<typeof Bun.serve>
export type Kind = "wage" | "parse"

/** Every `Bun.serve` made from now on, in order, to drive it with `server.fetch`. */
export const captureServers = (): ReadonlyArray<Served> => {
  const servers: Array<Served> = []
  const serve = Bun.serve
  Bun.serve = ((options: Parameters<typeof Bun.serve>[0]) => {
    const server = serve(options)
    servers.push(server)
    return server
  }) as typeof Bun.serve
  return servers
}

const bodies: Record<Kind, string> = {
  wage: JSON.stringify({ hourlyWage: 25 }),
  parse: JSON.stringify({
    operation: "parse",
    userAgent:
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
  })
}

/** `requests` requests of `kind`, CONNECTIONS at a time; anything but a 200 stops the run. */
export const load = async (server: Served, kind: Kind, requests: number): Promise<void> => {
  const body = bodies[kind]
  const url = `http://localhost/v1/tools/${kind === "wage" ? "wage-estimator" : "user-agent-parser"}`
  // With Content-Length, as wrk and browsers send a small body (without, the body is read as a stream).
  const headers = {
    authorization: `Bearer ${KEY}`,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body))
  }
  let sent = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent++ < requests) {
        const response = (await server.fetch(new Request(url, { method: "POST", headers, body }))) as Response
        if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`)
        await response.arrayBuffer()
      }
    })
  )
}

/** CPU time a request took on each target, one value a trial; targets alternate their order each trial. */
export const alternate = async (
  targets: ReadonlyArray<readonly [string, Served]>,
  kind: Kind,
  trials: number
): Promise<Map<string, Array<number>>> => {
  const cpu = new Map<string, Array<number>>()
  for (let trial = 0; trial < trials; trial++) {
    for (const [name, server] of trial % 2 === 0 ? targets : [...targets].reverse()) {
      const before = process.cpuUsage()
      await load(server, kind, PER_TRIAL)
      const used = process.cpuUsage(before)
      cpu.set(name, [...(cpu.get(name) ?? []), (used.user + used.system) / PER_TRIAL])
    }
  }
  return cpu
}

/** Prints min, p25 and median of each target's trials on stderr, with `extra(name)` after each line. */
export const report = (
  kind: Kind,
  trials: number,
  cpu: Map<string, Array<number>>,
  extra: (name: string) => string = () => ""
): void => {
  const at = (values: Array<number>, q: number) => values[Math.floor(q * (values.length - 1))]!.toFixed(1)
  const width = Math.max(...[...cpu.keys()].map((name) => name.length)) + 2
  process.stderr.write(
    `${kind}: ${trials} trials of ${PER_TRIAL} requests each, ${CONNECTIONS} at a time, alternating\n`
  )
  for (const [name, values] of cpu) {
    values.sort((a, b) => a - b)
    process.stderr.write(
      `${name.padEnd(width)}CPU µs/request min ${at(values, 0)} p25 ${at(values, 0.25)} median ${at(values, 0.5)}` +
        `${extra(name)}\n`
    )
  }
}
