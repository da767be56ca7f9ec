/**
 * `bun bench/spanCost.ts [rounds]`: what the request path's tracing costs with tracing off (no trace exporter,
 * `References.TracerEnabled` false), against the same steps without it: the key id on the request's span and the two
 * child spans (rate limit, tool), each step a `Effect.succeed`; the service's `Tracing.withSpan` reads the switch first. Rounds alternate; prints ns a request (min, median).
 */
import { Effect, References } from "effect"
import * as Tracing from "../src/Observability/Tracing.ts"

const UNTRACED = { captureStackTrace: false } as const
const N = 100_000
const rounds = Number(process.argv[2] ?? 15)

const step = Effect.succeed(1)
const bare = () => Effect.andThen(step, step)
const spanned = (options?: typeof UNTRACED) =>
  Effect.andThen(
    Effect.annotateCurrentSpan("tools_api.key_id", "key_0123abcd"),
    Effect.andThen(Effect.withSpan(step, "rate-limit", options), Effect.withSpan(step, "tool wageEstimator", options))
  )

// the switch read once, where the layer is built, as the middlewares read it
const withSpan = Effect.runSync(Tracing.withSpan.pipe(Effect.provideService(References.TracerEnabled, false)))
const guarded = () => Effect.andThen(withSpan(step, "rate-limit"), withSpan(step, "tool wageEstimator"))

const targets: ReadonlyArray<readonly [string, () => Effect.Effect<number>]> = [
  ["no spans", bare],
  ["withSpan, tracing off", () => spanned(UNTRACED)],
  ["withSpan with stack trace, tracing off", () => spanned()],
  ["Tracing.withSpan (the switch read once)", guarded]
]

const time = (make: () => Effect.Effect<number>) => {
  // built per request, as the middlewares build them
  const program = Effect.gen(function* () {
    for (let i = 0; i < N; i++) yield* make()
  }).pipe(Effect.provideService(References.TracerEnabled, false))
  const started = Bun.nanoseconds()
  Effect.runSync(program)
  return (Bun.nanoseconds() - started) / N
}

const results = new Map<string, Array<number>>()
for (let round = 0; round < rounds; round++) {
  for (const [name, make] of round % 2 === 0 ? targets : [...targets].reverse()) {
    Bun.gc(true)
    results.set(name, [...(results.get(name) ?? []), time(make)])
  }
}
for (const [name, values] of results) {
  const sorted = values.slice(1).sort((a, b) => a - b) // the first round warms the JIT
  const median = sorted[Math.floor(sorted.length / 2)]!
  console.log(`${name.padEnd(44)} ns/request min ${sorted[0]!.toFixed(0)} median ${median.toFixed(0)}`)
}
