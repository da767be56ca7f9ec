/** The rate-limit headers (IETF's draft and the widely used `X-RateLimit-*`): no server code, the document reads it. */
import type { RateLimitDecision } from "./Limiter.ts"

const integer = { type: "integer", minimum: 0 }
const text = { type: "string" }

export const DOCUMENTED: Readonly<Record<string, object>> = {
  "RateLimit-Policy": { description: 'The key\'s bucket, `"default";q=<capacity>;w=60`', schema: text },
  RateLimit: { description: '`"default";r=<whole tokens left>;t=<seconds until full>`', schema: text },
  "X-RateLimit-Limit": { description: "Bucket capacity per minute", schema: integer },
  "X-RateLimit-Remaining": { description: "Whole tokens left", schema: integer },
  "X-RateLimit-Reset": { description: "Unix seconds when the bucket is full", schema: integer },
  "Retry-After": {
    description: "Whole seconds until a request can succeed again",
    schema: { type: "integer", minimum: 1 }
  }
}

export const RETRY_AFTER = "Retry-After"
export const EXPOSED: ReadonlyArray<string> = Object.keys(DOCUMENTED)
/** Every header a known caller's `/v1` answer carries, as the document and CORS spell them. */
export const NAMES = EXPOSED.filter((name) => name !== RETRY_AFTER)

/** The headers of a decision, at `now` (epoch ms), lower-case as sent; `Retry-After` when it refused. */
export const headersOf = (decision: RateLimitDecision, now: number): Record<string, string> => {
  const headers: Record<string, string> = {
    "ratelimit-policy": `"default";q=${decision.limit};w=60`,
    ratelimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
    "x-ratelimit-limit": String(decision.limit),
    "x-ratelimit-remaining": String(decision.remaining),
    "x-ratelimit-reset": String(Math.ceil(now / 1000) + decision.resetSeconds)
  }
  if (!decision.allowed) headers["retry-after"] = String(decision.retryAfterSeconds)
  return headers
}
