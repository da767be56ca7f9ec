/**
 * The `Redis` service of effect/persistence on ioredis (README, "Redis client"), for REDIS_URL. Commands fail at
 * once while the connection is down, and past a 50 ms deadline, which must catch a stalled Redis, not a busy process:
 * Bun reads sockets only between batches of work, so under a burst Redis's answers may wait unread past it. So the
 * verdict waits one more turn of the event loop, in which sockets are read (a plain timer declared a healthy Redis
 * down 4 times in 2.7 s at 20 connections).
 */
import { once } from "node:events"
import { Effect } from "effect"
import { Redis } from "effect/persistence"
import { AppConfig, InvalidConfig } from "../Config.ts"

export const DEADLINE_MS = 50
const WAIT_MS = 1_000
const AUTH = /WRONGPASS|NOAUTH|invalid password/i

const within = <A>(answer: Promise<A>): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const late = () => reject(new Error(`no answer within ${DEADLINE_MS} ms`))
    const timer = setTimeout(() => setTimeout(late, 0), DEADLINE_MS)
    answer.then(resolve, reject).finally(() => clearTimeout(timer))
  })
const innermost = (error: unknown): unknown =>
  error instanceof Error ? (error.cause === undefined ? error.message : innermost(error.cause)) : error
const unused = Effect.fail(new Redis.RedisError({ cause: "not offered: the rate limiter sends commands only" }))

/** The service; where Redis is (no credentials); whether it answered within a second; why a command failed. */
export const connect = Effect.gen(function* () {
  const url = (yield* AppConfig).redisUrl
  if (url === undefined) return yield* new InvalidConfig({ message: "REDIS_URL is not set" })
  // Loaded only when REDIS_URL is set, so a start without Redis does not pay for evaluating ioredis.
  const { default: IoRedis } = yield* Effect.promise(() => import("ioredis"))
  let lastError: string | undefined
  const client = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const client = new IoRedis(url.href, {
        commandTimeout: WAIT_MS, // clears what a stalled Redis never answered
        enableOfflineQueue: false,
        autoResendUnfulfilledCommands: false, // those were decided from memory already
        maxRetriesPerRequest: 0,
        connectTimeout: WAIT_MS,
        retryStrategy: (attempt) => Math.min(attempt * 100, 1_000)
      })
      client.on("error", (error: Error) => void (lastError = error.message))
      client.on("ready", () => void (lastError = undefined))
      return client
    }),
    (client) => Effect.sync(() => client.disconnect())
  )
  const connected = yield* Effect.isSuccess(
    Effect.timeout(
      Effect.tryPromise(() => once(client, "ready")),
      WAIT_MS
    )
  )
  const redis = yield* Redis.make({
    send: <A>(command: string, ...args: ReadonlyArray<string>) =>
      Effect.tryPromise({
        try: () => within(client.call(command, ...args) as Promise<A>),
        catch: (cause) => new Redis.RedisError({ cause })
      }),
    subscribe: () => unused,
    connect: unused
  })
  const why = (error?: unknown): string => {
    const reason = lastError ?? (error === undefined ? "no connection within 1 s" : String(innermost(error)))
    return AUTH.test(reason) ? `authentication failed (${reason})` : reason
  }
  return { redis, address: `${url.hostname}:${url.port === "" ? "6379" : url.port}`, connected, why }
})
