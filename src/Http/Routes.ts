// The paths the service answers and their methods, from the HttpApi served: for 405's `Allow`, CORS and metrics.
// The router tells a request only that no route matched, not which methods its path has: paths are matched here
// as the router matches them, so a 405 can list them and a metric name the route.
import { Context, Layer } from "effect"
import { HttpApi, type HttpApiGroup, HttpApiMiddleware } from "effect/http-api"
import { AppConfig } from "../Config.ts"
import { METRICS_PATH } from "../Observability/Metrics.ts"

export const HOME_PATH = "/"
export const OPENAPI_PATH = "/openapi.json"
export const DOCS_PATH = "/docs"

// A path as the router compares it: cut at ";" as at "?", slashes collapsed, a trailing one dropped, decoded, any case.
const canonical = (path: string): string => {
  const semicolon = path.indexOf(";", 1)
  let text = (semicolon === -1 ? path : path.slice(0, semicolon)).replace(/\/{2,}/g, "/")
  try {
    text = decodeURI(text)
  } catch {
    // a malformed escape matches no route; the path stays as sent
  }
  if (text.length > 1 && text.endsWith("/")) text = text.slice(0, -1)
  return text.toLowerCase()
}

export interface Routes {
  /** The route a request path reaches, matched as the router matches (`//v1/tools/wage-estimator/` reaches one). */
  readonly routeOf: (path: string) => string | undefined
  readonly methodsOf: (path: string) => ReadonlyArray<string> | undefined
  readonly isTool: (path: string) => boolean
}

export const makeRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  metricsServed = true
): Routes => {
  const known = new Map<string, Array<string>>()
  const tools = new Set<string>()
  const add = (path: string, method: string) => known.set(path, [...(known.get(path) ?? []), method])
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      add(endpoint.path, endpoint.method)
      if ([...middleware].some(HttpApiMiddleware.isSecurity)) tools.add(endpoint.path)
    }
  })
  for (const path of [HOME_PATH, OPENAPI_PATH, DOCS_PATH]) add(path, "GET")
  if (metricsServed) add(METRICS_PATH, "GET")
  const byCanonical = new Map([...known.keys()].map((path) => [canonical(path), path]))
  const routeOf = (path: string) => (known.has(path) ? path : byCanonical.get(canonical(path)))
  return {
    routeOf,
    // "" is no route: every path begins with "/"
    methodsOf: (path) => known.get(routeOf(path) ?? ""),
    isTool: (path) => tools.has(routeOf(path) ?? "")
  }
}

export class ApiRoutes extends Context.Service<ApiRoutes, Routes>()("app/ApiRoutes") {
  static readonly layer = <Id extends string, Groups extends HttpApiGroup.Constraint>(
    api: HttpApi.HttpApi<Id, Groups>
  ): Layer.Layer<ApiRoutes, never, AppConfig> =>
    Layer.effect(
      ApiRoutes,
      // /metrics is a route of this port unless turned off or served on a listener of its own
      AppConfig.useSync(({ metrics, metricsPort }) => makeRoutes(api, metrics && metricsPort === undefined))
    )
}

/** A request target's path: up to its query, or a fragment a raw client sent (`#` never reaches a route). */
export const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}
