/**
 * Every path the service answers and its methods, derived from the HttpApi plus the routes outside it, so 404
 * and 405 (with `Allow`) follow the API definition without a second list to keep in step.
 */
import { HttpApi } from "effect/http-api"
import { ToolsApi } from "../Api.ts"

export const HOME_PATH = "/"
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
  for (const path of [HOME_PATH, OPENAPI_PATH, DOCS_PATH, METRICS_PATH]) add(path, "GET")
  return routes
}

/** Path to the methods it has. */
export const knownRoutes = build()

/** The API's own endpoints, `METHOD path` to the endpoint's name, for tests and clients that walk the API. */
export const endpoints = (): ReadonlyArray<{
  readonly method: string
  readonly path: string
  readonly name: string
}> => {
  const found: Array<{ method: string; path: string; name: string }> = []
  HttpApi.reflect(ToolsApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) =>
      found.push({ method: endpoint.method, path: endpoint.path, name: endpoint.identifier })
  })
  return found
}

/**
 * A path as the router compares it: ended at a ";" as at a "?" (`/docs;jsessionid=1` is `/docs`), duplicate and
 * trailing slashes ignored, percent-decoded, any case.
 */
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

const byCanonical: ReadonlyMap<string, string> = new Map([...knownRoutes.keys()].map((path) => [canonical(path), path]))

/**
 * The known route a request path reaches, matched the way the router matches (`//v1/tools/wage-estimator/` is
 * served as `/v1/tools/wage-estimator`), so its 405, `Allow` and metrics label agree with what the router serves.
 */
export const routeOf = (path: string): string | undefined =>
  knownRoutes.has(path) ? path : byCanonical.get(canonical(path))

export const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}
