/**
 * The connection to Redis (or Valkey) that holds shared rate-limit buckets, from REDIS_URL. Every command has a
 * 50 ms budget (CommandBudget.ts) and fails at once while the connection is down, so a caller can fall back instead
 * of waiting; ioredis reconnects by itself, at most a second apart. Outages are reported by the limiter, not here.
 */
import { Context, Data, Effect, Layer } from "effect"
import { AppConfig, InvalidConfig } from "../Config.ts"
import { bucketKey, decodeReply, TAKE_SCRIPT, TAKE_SCRIPT_SHA } from "../Domain/RedisBucket.ts"
import type { BucketShape, RateLimitDecision } from "../Domain/TokenBucket.ts"
import { withinBudget } from "./CommandBudget.ts"

/** Each command's budget; past it the command counts as failed. */
export const COMMAND_BUDGET_MS = 50
/** ioredis's own timeout, a backstop that clears its queue of commands a stalled Redis never answered. */
const CLIENT_TIMEOUT_MS = 1_000
/** How long the start waits for a first connection before serving on per-instance limits. */
const CONNECT_WAIT_MS = 1_000

export class StoreUnavailable extends Data.TaggedError("StoreUnavailable")<{ readonly reason: string }> {}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
const isNoScript = (error: unknown) => error instanceof Error && error.message.startsWith("NOSCRIPT")

export class RedisStore extends Context.Service<
  RedisStore,
  {
    /** Whether the first connection was made within a second of the start. */
    readonly connected: boolean
    /** Where Redis is, without credentials, for log lines. */
    readonly address: string
    /** Takes a token from a shared bucket. `nowMs` only in tests: production uses Redis's clock. */
    readonly take: (
      kind: "key" | "address",
      id: string,
      shape: BucketShape,
      nowMs?: number
    ) => Effect.Effect<RateLimitDecision, StoreUnavailable>
    readonly ping: Effect.Effect<string, StoreUnavailable>
  }
>()("app/RedisStore") {
  static readonly layer: Layer.Layer<RedisStore, InvalidConfig, AppConfig> = Layer.effect(
    RedisStore,
    Effect.gen(function* () {
      const url = (yield* AppConfig).redisUrl
      if (url === undefined) return yield* new InvalidConfig({ message: "REDIS_URL is not set" })
      // Loaded here, only when REDIS_URL is set, so a start without Redis does not pay for evaluating ioredis.
      const { default: Redis } = yield* Effect.promise(() => import("ioredis"))
      const client = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const client = new Redis(url.href, {
            commandTimeout: CLIENT_TIMEOUT_MS,
            enableOfflineQueue: false, // while disconnected, fail at once rather than queue
            autoResendUnfulfilledCommands: false, // those were answered from memory already
            maxRetriesPerRequest: 0,
            connectTimeout: CONNECT_WAIT_MS,
            retryStrategy: (attempt) => Math.min(attempt * 100, 1_000) // reconnect forever, at most 1 s apart
          })
          client.on("error", () => {}) // reported once by the limiter, not per reconnect attempt
          // Loaded once per connection; EVALSHA falls back to EVAL if Redis lost it (SCRIPT FLUSH, a failover).
          client.on("ready", () => void client.script("LOAD", TAKE_SCRIPT).catch(() => {}))
          return client
        }),
        (client) => Effect.sync(() => client.disconnect())
      )
      const connected = yield* Effect.callback<boolean>((resume) => {
        if (client.status === "ready") return resume(Effect.succeed(true))
        const ready = () => resume(Effect.succeed(true))
        client.once("ready", ready)
        const timer = setTimeout(() => resume(Effect.succeed(false)), CONNECT_WAIT_MS)
        return Effect.sync(() => (clearTimeout(timer), client.off("ready", ready)))
      })
      const command = <A>(run: () => Promise<A>) =>
        Effect.tryPromise({
          try: () => withinBudget(run(), COMMAND_BUDGET_MS),
          catch: (error) => new StoreUnavailable({ reason: reasonOf(error) })
        })
      return RedisStore.of({
        connected,
        address: `${url.hostname}:${url.port === "" ? "6379" : url.port}`,
        take: (kind, id, shape, nowMs) => {
          const key = bucketKey(kind, id)
          const args = nowMs === undefined ? [shape.capacity, shape.windowMs] : [shape.capacity, shape.windowMs, nowMs]
          return command(() =>
            client
              .evalsha(TAKE_SCRIPT_SHA, 1, key, ...args)
              .catch((error) => (isNoScript(error) ? client.eval(TAKE_SCRIPT, 1, key, ...args) : Promise.reject(error)))
          ).pipe(
            Effect.flatMap((reply) => {
              const decision = decodeReply(shape, reply)
              return decision === undefined
                ? Effect.fail(new StoreUnavailable({ reason: "unexpected reply from the rate-limit script" }))
                : Effect.succeed(decision)
            })
          )
        },
        ping: command(() => client.ping())
      })
    })
  )
}
