/**
 * The baseline the service is measured against: a bare `Bun.serve` doing the same essential work on the two tool
 * endpoints, with the project's own pure functions where they exist (token buckets, user-agent parsing and
 * generation, wage maths), so the ratio measures what the Effect HttpApi costs, not a different algorithm.
 *
 * Per request, as the service does: a request id, the Bearer key looked up by its SHA-256 digest, the Content-Type
 * and size checks, one JSON parse, the caller's tokens (one, or one a string of a parse batch; with the rate-limit
 * headers), the payload checks, the work (a cached parse with the same LRU, each string of a batch in turn, a
 * weighted draw, exact wage maths), the same JSON out with the same headers, a counter and a latency histogram, and
 * one JSON log line on stdout.
 *
 * Environment: PORT, HOST, API_KEYS, RATE_LIMIT_PER_MINUTE, UA_CACHE_SIZE, MAX_BODY_BYTES (the service's defaults).
 */
import { LRUCache } from "lru-cache"
import type { UserAgentInfo } from "../src/Tools/UserAgent/Schemas.ts"
import { checkCombination } from "../src/Tools/UserAgent/generate/Combinations.ts"
import { buildPools, pick, poolFor, type Pools } from "../src/Tools/UserAgent/generate/Pools.ts"
import { parseUserAgent } from "../src/Tools/UserAgent/parse/Normalise.ts"
import { loadLookups } from "../src/Tools/UserAgent/device/Database.ts"
import { decimalOf, MAX_ANNUAL_SALARY, MAX_HOURLY_WAGE } from "../src/Tools/Wage/Amount.ts"
import { estimate } from "../src/Tools/Wage/Estimator.ts"
import { assumptions } from "../src/Tools/Wage/Schemas.ts"
import { type BigDecimal, Effect, Option } from "effect"

// the device database, read and built at start as the service does
const { identify: devices } = await Effect.runPromise(loadLookups)

const env = (name: string, fallback: number): number => {
  const raw = process.env[name]?.trim()
  return raw === undefined || raw === "" ? fallback : Number(raw)
}

const port = env("PORT", 3000)
const perMinute = env("RATE_LIMIT_PER_MINUTE", 100)
const cacheSize = env("UA_CACHE_SIZE", 10_000)
const maxBodyBytes = env("MAX_BODY_BYTES", 16_384)
const keys = new Map<string, string>()
for (const key of (process.env.API_KEYS ?? "").split(",").map((k) => k.trim())) {
  if (key === "") continue
  const digest = Bun.SHA256.hash(key, "hex")
  keys.set(digest, `key_${digest.slice(0, 8)}`)
}

// The service's algorithm, Effect's token bucket (RateLimiter.layerStoreMemory), inlined so the baseline stays bare:
// one token every 60 s / capacity, whole refill intervals only; a full bucket restarts its interval.
const refillMs = 60_000 / perMinute
const buckets = new Map<string, { tokens: number; lastRefill: number }>()
const take = (key: string, now: number, tokens = 1) => {
  let bucket = buckets.get(key)
  if (bucket === undefined) buckets.set(key, (bucket = { tokens: perMinute, lastRefill: now }))
  const refills = Math.floor((now - bucket.lastRefill) / refillMs)
  if (refills > 0)
    ((bucket.tokens = Math.min(perMinute, bucket.tokens + refills)), (bucket.lastRefill += refills * refillMs))
  if (bucket.tokens >= perMinute) bucket.lastRefill = now
  const allowed = bucket.tokens >= tokens
  if (allowed) bucket.tokens -= tokens
  const elapsed = now - bucket.lastRefill
  const seconds = (ms: number) => Math.ceil(Math.round(ms) / 1000)
  const resetSeconds = seconds((perMinute - bucket.tokens) * refillMs - elapsed)
  return { allowed, limit: perMinute, remaining: bucket.tokens, resetSeconds }
}
const cache = new LRUCache<string, UserAgentInfo>({ max: Math.max(1, cacheSize) })
let pools: Pools | undefined

const counts = new Map<string, number>()
const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
const histogram = new Map<string, Array<number>>()
const observe = (route: string, status: number, seconds: number) => {
  const key = `${route} ${status}`
  counts.set(key, (counts.get(key) ?? 0) + 1)
  let buckets = histogram.get(route)
  if (buckets === undefined) histogram.set(route, (buckets = new Array<number>(BOUNDS.length + 1).fill(0)))
  let i = 0
  while (i < BOUNDS.length && seconds > BOUNDS[i]!) i++
  buckets[i]!++
}

const BEARER = /^bearer(?:[ \t]+(.*))?$/i
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/
const UA_PATH = "/v1/tools/user-agent-parser"
const WAGE_PATH = "/v1/tools/wage-estimator"

class Failure {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly path?: string
  ) {}
}

const invalid = (path: string, message: string) => new Failure(400, "invalid_request", `${path} ${message}`, path)

const parseRequest = (body: Record<string, unknown>): UserAgentInfo | Array<UserAgentInfo> | Failure => {
  if (body.operation === "generate") {
    const options = { browser: body.browser, os: body.os, deviceType: body.deviceType } as Parameters<
      typeof checkCombination
    >[0]
    const wrong = checkCombination(options)
    if (wrong !== undefined) return new Failure(400, "invalid_request", wrong.message)
    if (pools === undefined) return new Failure(500, "internal_error", "The traffic data set is not loaded")
    const info = pick(poolFor(pools, options), Math.random())
    return info ?? new Failure(400, "invalid_request", "No current user agent is known")
  }
  if (body.operation !== "parse") return invalid("operation", 'must be "parse" or "generate"')
  if ("userAgents" in body) return parseMany(body.userAgents)
  const ua = body.userAgent
  const wrong = userAgentProblem(ua)
  if (wrong !== undefined) return invalid("userAgent", wrong)
  return parseCached(ua as string)
}

const userAgentProblem = (ua: unknown): string | undefined => {
  if (typeof ua !== "string") return "must be a string"
  if (ua.trim() === "") return "must not be empty or only white space"
  if (ua.length > 2048) return "must be at most 2048 characters"
  return undefined
}

const parseCached = (ua: string): UserAgentInfo => {
  let info = cache.get(ua)
  if (info === undefined) cache.set(ua, (info = parseUserAgent(ua, undefined, { devices })))
  return info
}

/** A batch: every string checked first (nothing parsed when one is wrong), then each parsed, in order. */
const parseMany = (uas: unknown): Array<UserAgentInfo> | Failure => {
  if (!Array.isArray(uas) || uas.length < 1 || uas.length > 100) {
    return invalid("userAgents", "must be an array of 1 to 100 user-agent strings")
  }
  for (let i = 0; i < uas.length; i++) {
    const wrong = userAgentProblem(uas[i])
    if (wrong !== undefined) return invalid(`userAgents[${i}]`, wrong)
  }
  return uas.map(parseCached)
}

const wageRequest = (body: Record<string, unknown>, text: string) => {
  const given = ("hourlyWage" in body ? 1 : 0) + ("annualSalary" in body ? 1 : 0)
  if (given !== 1) return new Failure(400, "invalid_request", given === 0 ? "Give hourlyWage" : "Give only one")
  const [field, max] = "hourlyWage" in body ? ["hourlyWage", MAX_HOURLY_WAGE] : ["annualSalary", MAX_ANNUAL_SALARY]
  const value = body[field]
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > max) {
    return new Failure(422, "invalid_value", `${field} must be a positive number`, field)
  }
  // the amount as written, as the service computes it (the decimal, not the float)
  let written = Option.none<BigDecimal.BigDecimal>()
  JSON.parse(text, (key: string, parsed: unknown, context?: { source?: string }) => {
    if (key === field && context?.source !== undefined) written = decimalOf(context.source)
    return parsed
  })
  if (Option.isNone(written)) return new Failure(422, "invalid_value", `${field} must be a positive number`, field)
  const amount = written.value
  const estimates = estimate(field === "hourlyWage" ? { hourlyWage: amount } : { annualSalary: amount })
  return { success: true, estimates, assumptions }
}

/** One token a string of a parse batch, taken at once (the service takes a batch's further tokens once decoded). */
const tokenCost = (body: Record<string, unknown>): number => {
  const { operation, userAgents } = body
  const n = Array.isArray(userAgents) ? userAgents.length : 0
  return operation === "parse" && !("userAgent" in body) && n >= 1 && n <= 100 ? n : 1
}

/** The body as JSON, and its text (the wage amount is read as written). */
const readBody = async (request: Request): Promise<{ body: Record<string, unknown>; text: string } | Failure> => {
  const type = request.headers.get("content-type")
  if (type !== null && type.split(";")[0]!.trim().toLowerCase() !== "application/json") {
    return new Failure(400, "invalid_request", "Content-Type must be application/json")
  }
  if (Number(request.headers.get("content-length") ?? 0) > maxBodyBytes) {
    return new Failure(413, "payload_too_large", "The request body is over the limit")
  }
  let body: unknown
  const text = await request.text()
  try {
    body = JSON.parse(text)
  } catch {
    return new Failure(400, "invalid_request", "The request body is not valid JSON")
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return new Failure(400, "invalid_request", "The request body must be a JSON object")
  }
  return { body: body as Record<string, unknown>, text }
}

const handle = async (request: Request, headers: Record<string, string>): Promise<unknown> => {
  const url = request.url
  const path = url.slice(url.indexOf("/", 8), url.includes("?") ? url.indexOf("?") : undefined)
  if (path !== UA_PATH && path !== WAGE_PATH) return new Failure(404, "not_found", `No route for ${path}`)
  if (request.method !== "POST") return new Failure(405, "method_not_allowed", `${request.method} is not allowed`)
  const key = BEARER.exec(request.headers.get("authorization") ?? "")?.[1]?.trim() ?? ""
  const caller = key === "" ? undefined : keys.get(Bun.SHA256.hash(key, "hex"))
  if (caller === undefined) return new Failure(401, "unauthorized", "Send an API key as Authorization: Bearer <key>")
  headers.keyId = caller
  // the body is read and judged first, as the service does: a batch takes one token a string
  const read = await readBody(request)
  const decision = take(caller, Date.now(), read instanceof Failure ? 1 : tokenCost(read.body))
  headers["ratelimit-policy"] = `"default";q=${decision.limit};w=60`
  headers.ratelimit = `"default";r=${decision.remaining};t=${decision.resetSeconds}`
  headers["x-ratelimit-limit"] = String(decision.limit)
  headers["x-ratelimit-remaining"] = String(decision.remaining)
  headers["x-ratelimit-reset"] = String(Math.ceil(Date.now() / 1000) + decision.resetSeconds)
  if (!decision.allowed) return new Failure(429, "rate_limited", "Rate limit exceeded")
  if (read instanceof Failure) return read
  const { body, text } = read
  if (path === WAGE_PATH) return wageRequest(body, text)
  // loaded on first use, as the service does
  if ((body as { operation?: unknown }).operation === "generate" && pools === undefined) {
    const { default: UserAgent } = await import("user-agents")
    pools = Effect.runSync(
      buildPools(UserAgent.top(), (userAgents) =>
        Effect.sync(() => userAgents.map((ua) => parseUserAgent(ua, undefined, { devices })))
      )
    )
  }
  const data = parseRequest(body as Record<string, unknown>)
  return data instanceof Failure ? data : { success: true, data }
}

Bun.serve({
  port,
  hostname: process.env.HOST ?? "0.0.0.0",
  async fetch(request) {
    const started = performance.now()
    const supplied = request.headers.get("x-request-id")
    const requestId = supplied !== null && SANE_REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID()
    const url = new URL(request.url)
    if (url.pathname === "/health") return Response.json({ status: "ok" })
    const extra: Record<string, string> = {}
    const result = await handle(request, extra)
    const status = result instanceof Failure ? result.status : 200
    const body =
      result instanceof Failure
        ? {
            success: false,
            error: {
              code: result.code,
              message: result.message,
              ...(result.path === undefined ? {} : { details: [{ path: result.path, message: result.message }] })
            }
          }
        : result
    const { keyId, ...rateLimit } = extra
    const durationMs = performance.now() - started
    observe(url.pathname, status, durationMs / 1000)
    console.log(
      JSON.stringify({
        message: "request",
        logLevel: "INFO",
        timestamp: new Date().toISOString(),
        annotations: {
          durationMs: Math.round(durationMs * 100) / 100,
          path: url.pathname,
          status,
          requestId,
          method: request.method,
          ...(keyId === undefined ? {} : { keyId })
        },
        spans: {},
        fiberId: "#0"
      })
    )
    return new Response(JSON.stringify(body), {
      status,
      headers: {
        "content-type": "application/json",
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
        "x-request-id": requestId,
        ...rateLimit
      }
    })
  }
})
