/**
 * `bun bench/logline.ts [rounds]`: CPU µs a request log line takes (`Effect.logInfo` with `annotateLogs`, the request's
 * six fields), through Effect's `Logger.consoleJson` and through the service's `jsonLogger`, alternating rounds of
 * 20,000 lines, to a console that keeps nothing: the formatters side by side, without the sink's write.
 */
import { Console, Effect, Layer, Logger } from "effect"
import { jsonLogger } from "../src/Observability/Logger.ts"

const LINES = 20_000
const rounds = Number(process.argv[2] ?? 15)
const discard = Layer.succeed(Console.Console, { ...console, log: () => {} })
const line = Effect.suspend(() =>
  Effect.annotateLogs(Effect.logInfo("request"), {
    method: "POST",
    path: "/v1/tools/wage-estimator",
    status: 200,
    durationMs: Math.round(Math.random() * 10_000) / 100,
    requestId: crypto.randomUUID(),
    keyId: "key_0123abcd"
  })
)
const targets = { "Logger.consoleJson": Logger.consoleJson, jsonLogger, "no logger": undefined }

const cpu = new Map<string, Array<number>>()
for (let round = 0; round < rounds; round++) {
  for (const [name, logger] of Object.entries(targets)) {
    const program = Effect.gen(function* () {
      for (let i = 0; i < LINES; i++) yield* line
    }).pipe(Effect.provide(Layer.merge(Logger.layer(logger === undefined ? [] : [logger]), discard)))
    Bun.gc(true)
    const before = process.cpuUsage()
    Effect.runSync(program)
    const used = process.cpuUsage(before)
    cpu.set(name, [...(cpu.get(name) ?? []), (used.user + used.system) / LINES])
  }
}
for (const [name, values] of cpu) {
  values.sort((a, b) => a - b)
  const at = (q: number) => values[Math.floor(q * (values.length - 1))]!.toFixed(2)
  process.stderr.write(`${name.padEnd(20)}CPU µs/line min ${at(0)} p25 ${at(0.25)} median ${at(0.5)}\n`)
}
