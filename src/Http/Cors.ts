// CORS_ORIGINS: an allowed origin's preflight on a tool's path is answered before authentication and limits.
// Not HttpMiddleware.cors: it answers every OPTIONS, of any origin on any path, 204; the contract answers only an
// allowed origin's preflight on a /v1 path, and any other OPTIONS is the 405 it always was.
import { HttpServerResponse } from "effect/http"
import type { CorsOrigins } from "../Config.ts"
import * as RateLimitHeaders from "../RateLimit/Headers.ts"
import type { Routes } from "./Routes.ts"

const EXPOSED = [...RateLimitHeaders.EXPOSED, "X-Request-Id"].join(", ")

/** Every request header the API reads: a browser app sending one of them must not be blocked by its preflight. */
const ALLOWED_HEADERS = ["Authorization", "Content-Type", "X-Request-Id", "traceparent"].join(", ")

const allowed = (origins: CorsOrigins, origin: string | undefined): string | undefined => {
  if (origins === undefined || origin === undefined) return undefined
  if (origins === "*") return "*"
  return origins.has(origin) ? origin : undefined
}

const VARY_ONLY: Readonly<Record<string, string>> = { vary: "Origin" }

/** `Vary: Origin` on every response: a cache must not hand an answer made for one origin, or none, to another. */
export const corsHeaders = (origins: CorsOrigins, origin: string | undefined): Readonly<Record<string, string>> => {
  const allow = allowed(origins, origin)
  if (allow === undefined) return VARY_ONLY
  return { "access-control-allow-origin": allow, vary: "Origin", "access-control-expose-headers": EXPOSED }
}

export const preflight = (
  origins: CorsOrigins,
  routes: Routes,
  method: string,
  path: string,
  headers: Readonly<Record<string, string | undefined>>
): HttpServerResponse.HttpServerResponse | undefined => {
  if (method !== "OPTIONS" || headers["access-control-request-method"] === undefined) return undefined
  const allow = allowed(origins, headers.origin)
  if (allow === undefined || !routes.isTool(path)) return undefined
  return HttpServerResponse.empty({
    status: 204,
    headers: {
      "access-control-allow-origin": allow,
      vary: "Origin",
      "access-control-allow-methods": (routes.methodsOf(path) ?? []).join(", "),
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "600"
    }
  })
}
