/**
 * What a tool is: its endpoints (served under /v1/tools, behind the API key and the rate limit), their handlers, the
 * layer of its services, and any OpenAPI schema the generated one cannot express. The list in `index.ts` is the one
 * place tools are named; the HttpApi, the handlers' and services' layers and the OpenAPI fix-ups derive from it here.
 */
import { Effect, Layer } from "effect"
import { type HttpApi, HttpApiBuilder, type HttpApiEndpoint } from "effect/http-api"
import type { AppConfig } from "../Config.ts"

/** A handler for each endpoint, by the endpoint's name, typed by the endpoint's own schemas. */
export type HandlersOf<Endpoint extends HttpApiEndpoint.Constraint> = {
  readonly [Name in Endpoint["identifier"]]: HttpApiEndpoint.Handler<
    Extract<Endpoint, { identifier: Name }>,
    never,
    never
  >
}

export interface Tool<Endpoint extends HttpApiEndpoint.Constraint = any, Services = any> {
  readonly endpoints: readonly [Endpoint, ...Array<Endpoint>]
  /** Made once, at start, with the tool's services: so a request pays for no service lookup. */
  readonly handlers: Effect.Effect<HandlersOf<Endpoint>, never, Services>
  readonly layer: Layer.Layer<Services, never, AppConfig>
  /** Component schemas of the OpenAPI document replaced by the tool's own JSON Schema, by component name. */
  readonly jsonSchemas?: Readonly<Record<string, object>>
}

/** A tool, its handlers typed by its endpoints (inferred from `endpoints` alone). */
export const make = <const Endpoint extends HttpApiEndpoint.Constraint, Services>(tool: {
  readonly endpoints: readonly [Endpoint, ...Array<Endpoint>]
  readonly handlers: Effect.Effect<NoInfer<HandlersOf<Endpoint>>, never, Services>
  readonly layer: Layer.Layer<Services, never, AppConfig>
  readonly jsonSchemas?: Readonly<Record<string, object>>
}): Tool<Endpoint, Services> => tool

export type Tools = readonly [Tool, ...Array<Tool>]
export type EndpointOf<T extends Tools> = T[number]["endpoints"][number]
type ServicesOfTool<T> = T extends Tool<any, infer S> ? S : never
export type ServicesOf<T extends Tools> = ServicesOfTool<T[number]>

/** Every tool's endpoints, for the API's `tools` group. */
export const endpoints = <const T extends Tools>(tools: T): readonly [EndpointOf<T>, ...Array<EndpointOf<T>>] =>
  tools.flatMap((tool) => tool.endpoints) as never

/** The `tools` group of `api` implemented by every tool's handlers. */
export const handlersLayer = <T extends Tools>(
  api: HttpApi.HttpApi<string, any>,
  tools: T
): Layer.Layer<any, never, ServicesOf<T>> =>
  HttpApiBuilder.group(api as HttpApi.Top, "tools", (handlers) =>
    Effect.gen(function* () {
      let all: any = handlers
      for (const tool of tools) all = all.handleAll(yield* tool.handlers)
      return all
    })
  ) as never

/** Every tool's services. */
export const servicesLayer = <T extends Tools>(tools: T): Layer.Layer<ServicesOf<T>, never, AppConfig> =>
  Layer.mergeAll(...(tools.map((tool) => tool.layer) as [Layer.Layer<any, never, AppConfig>])) as never

/** Every tool's JSON Schema overrides, by component name. */
export const jsonSchemas = (tools: Tools): Readonly<Record<string, object>> =>
  Object.assign({}, ...tools.map((tool) => tool.jsonSchemas ?? {}))
