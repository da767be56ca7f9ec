/**
 * The token bucket of TokenBucket.ts as one Redis Lua script, so that every instance sharing a Redis (or Valkey)
 * takes from the same bucket, atomically, on Redis's clock. The same integer units as `take`: the level counts
 * 1/windowMs of a token, a refill adds `elapsedMs * capacity`. The script returns `[allowed, level]`, from which
 * `decide` makes the decision exactly as the in-memory limiter does.
 */
import { createHash } from "node:crypto"
import { type BucketShape, decide, type RateLimitDecision } from "./TokenBucket.ts"

/**
 * KEYS[1]: the bucket, a hash { level, at }. ARGV: capacity, windowMs, and optionally `now` in ms. Production never
 * passes `now`: the script reads Redis's TIME, one clock for all instances. Tests pass it to compare the script with
 * the reference model on sequences of their own timing; Redis's expiry still runs on its own clock, so then the key
 * is kept one window longer, lest it vanish between two steps of the test's time.
 * The key expires when the bucket would be full again: a full bucket is the same as none.
 */
export const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local slack = window
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  slack = 0
end
local full = capacity * window
local level = full
local stored = redis.call('HMGET', KEYS[1], 'level', 'at')
if stored[1] and stored[2] then
  level = math.min(full, tonumber(stored[1]) + math.max(0, now - tonumber(stored[2])) * capacity)
end
local allowed = 0
if level >= window then
  level = level - window
  allowed = 1
end
redis.call('HSET', KEYS[1], 'level', string.format('%.0f', level), 'at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((full - level) / capacity) + slack)
return { allowed, level }
`

/** What EVALSHA names the script by; Redis computes the same SHA-1 on SCRIPT LOAD. */
export const TAKE_SCRIPT_SHA = createHash("sha1").update(TAKE_SCRIPT).digest("hex")

/**
 * Key names: a prefix, the kind, and the id. For API keys the id is the caller's `bucket` (128 bits of the key's
 * SHA-256 digest, never the key); for failed authentications, the normalised client address.
 */
export const bucketKey = (kind: "key" | "address", id: string): string => `tools-api:ratelimit:${kind}:${id}`

/** The script's reply as a decision, or undefined if it is not the two integers the script returns. */
export const decodeReply = (shape: BucketShape, reply: unknown): RateLimitDecision | undefined => {
  if (!Array.isArray(reply) || reply.length !== 2) return undefined
  const [allowed, level] = reply as [unknown, unknown]
  if ((allowed !== 0 && allowed !== 1) || typeof level !== "number" || !Number.isSafeInteger(level)) return undefined
  return decide(shape, allowed === 1, level)
}
