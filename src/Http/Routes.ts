/**
 * Every path the service answers and its methods, derived from the HttpApi plus the routes outside it, so 404
 * and 405 (with `Allow`) follow the API definition without a second list to keep in step.
 */
import { HttpApi } from "@effect/platform"
import { ToolsApi } from "../Api.ts"

export const OPENAPI_PATH = "/openapi.json"
export const DOCS_PATH = "/docs"
export const METRICS_PATH = "/metrics"

const build = (): ReadonlyMap<string, ReadonlyArray<string>> => {
  const routes = new Map<string, Array<string>>()
  const add = (path: string, method: string) => routes.set(path, [...(routes.get(path) ?? []), method])
  HttpApi.reflect(ToolsApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => add(endpoint.path, endpoint.method)
  })
  for (const path of [OPENAPI_PATH, DOCS_PATH, METRICS_PATH]) add(path, "GET")
  return routes
}

/** Path to the methods it has. */
export const knownRoutes = build()
