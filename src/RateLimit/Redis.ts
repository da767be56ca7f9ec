// Effect's `Redis` service on ioredis (README, "Redis client"), for REDIS_URL. A command fails at once while the
// connection is down, and when no reply at all came for 250 ms while it waits, or after 800 ms (a busy Redis is slow,
// not down); each verdict first waits an event-loop turn, in which Bun reads the replies a burst kept it from reading.
import { once } from "node:events"
import { Effect } from "effect"
import { Redis } from "effect/persistence"
import { AppConfig, InvalidConfig } from "../Config.ts"

export const DEADLINE_MS = 250
const WAIT_MS = 1_000

// RateLimiterError -> its reason -> RedisError -> the client's error.
const innermost = (error: unknown): unknown => {
  const next = error instanceof Error ? (error.cause ?? (error as { reason?: Error }).reason) : undefined
  return next === undefined ? (error instanceof Error ? error.message : error) : innermost(next)
}
const unused = Effect.fail(new Redis.RedisError({ cause: "not offered: the rate limiter sends commands only" }))

// REDIS_URL as ioredis's options: given the string, ioredis parses it with Node's deprecated url.parse (DEP0169).
export const clientOptions = (url: URL) => {
  const db = url.pathname.replace(/^\//, "")
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? 6379 : Number(url.port),
    ...(url.username !== "" && { username: decodeURIComponent(url.username) }),
    ...(url.password !== "" && { password: decodeURIComponent(url.password) }),
    ...(db !== "" && { db: Number(db) }),
    ...(url.protocol === "rediss:" && { tls: {} })
  }
}

/** The service; where Redis is (no credentials); whether it answered within 1 s; why a command failed; Redis's time. */
export const connect = Effect.gen(function* () {
  const url = (yield* AppConfig).redisUrl
  if (url === undefined) return yield* new InvalidConfig({ message: "REDIS_URL is not set" })
  // Loaded only when REDIS_URL is set, so a start without Redis does not pay for evaluating ioredis.
  const { default: IoRedis } = yield* Effect.promise(() => import("ioredis"))
  let lastError: string | undefined
  const options = {
    commandTimeout: 800, // a Redis that answers, but this slowly, is down too
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false, // those were decided from memory already
    maxRetriesPerRequest: 0,
    connectTimeout: WAIT_MS,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1_000)
  }
  const open = Effect.sync(() => new IoRedis({ ...clientOptions(url), ...options }))
  const client = yield* Effect.acquireRelease(open, (client) => Effect.sync(() => client.disconnect()))
  client.on("error", (error: Error) => {
    lastError = error.message
  })
  // Effect's scripts take the caller's time: Redis's (TIME, read on each connection) keeps skewed hosts on one clock.
  let skew = 0
  const readTime = async () => {
    const [seconds, micros] = await client.time()
    skew = Number(seconds) * 1e3 + Number(micros) / 1e3 - Date.now()
  }
  client.on("ready", () => {
    lastError = undefined
    readTime().catch(() => {})
  })
  let lastReply = 0
  const within = <A>(answer: Promise<A>): Promise<A> =>
    new Promise<A>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const check = () => {
        const now = performance.now()
        if (now - lastReply < DEADLINE_MS) wait(DEADLINE_MS - (now - lastReply))
        else reject(new Error(`no answer for ${DEADLINE_MS} ms`))
      }
      // the verdict a turn later: Bun may read the reply a burst kept it from reading
      const nextTurn = () => {
        timer = setTimeout(check, 0)
      }
      const wait = (ms: number) => {
        timer = setTimeout(nextTurn, ms)
      }
      wait(DEADLINE_MS)
      answer.then(resolve, reject).finally(() => {
        lastReply = performance.now()
        clearTimeout(timer)
      })
    })
  const ready = Effect.tryPromise(() => once(client, "ready"))
  const connected = yield* Effect.isSuccess(Effect.timeout(ready, WAIT_MS))
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
    return /WRONGPASS|NOAUTH|invalid password/i.test(reason) ? `authentication failed (${reason})` : reason
  }
  const address = `${url.hostname}:${url.port === "" ? "6379" : url.port}`
  return { redis, address, connected, why, now: () => Date.now() + skew }
})
