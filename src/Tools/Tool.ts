/**
 * What a tool is on the server: its contract (`Contract.ts`), the handlers of the contract's endpoints and the layer
 * of its services. The list in `index.ts` is the one place tools are served from; handlers and services derive
 * from it here.
 */
import { Effect, Layer } from "effect"
import { type HttpApi, HttpApiBuilder, type HttpApiEndpoint } from "effect/http-api"
import type { AppConfig } from "../Config.ts"
import type * as Contract from "./Contract.ts"

type EndpointsOf<C> = C extends Contract.Contract<infer Endpoint> ? Endpoint : never

/** A handler for each endpoint of a contract, by the endpoint's name, typed by the endpoint's own schemas. */
export type HandlersOf<C extends Contract.Contract> = {
  readonly [Name in EndpointsOf<C>["identifier"]]: HttpApiEndpoint.Handler<
    Extract<EndpointsOf<C>, { identifier: Name }>,
    never,
    never
  >
}

export interface Tool<C extends Contract.Contract = Contract.Contract, Services = any, E = unknown> {
  readonly contract: C
  /** Made once, at start, with the tool's services: so a request pays for no service lookup. */
  readonly handlers: Effect.Effect<HandlersOf<C>, never, Services>
  /** its services; its error stops the start (a damaged data file) */
  readonly layer: Layer.Layer<Services, E, AppConfig>
}

/** A tool, its handlers typed by its contract's endpoints. */
export const make = <const C extends Contract.Contract, Services, E = never>(tool: {
  readonly contract: C
  readonly handlers: Effect.Effect<NoInfer<HandlersOf<C>>, never, Services>
  readonly layer: Layer.Layer<Services, E, AppConfig>
}): Tool<C, Services, E> => tool

export type Tools = readonly [Tool, ...Array<Tool>]
type ServicesOfTool<T> = T extends Tool<any, infer S> ? S : never
export type ServicesOf<T extends Tools> = ServicesOfTool<T[number]>
type ErrorOfTool<T> = T extends { readonly layer: Layer.Layer<infer _S, infer E, infer _R> } ? E : never
export type ErrorOf<T extends Tools> = ErrorOfTool<T[number]>

/** The tools' contracts, in order: what the API serving them is made of (`makeApi`). */
export const contracts = <const T extends Tools>(tools: T): Contract.Contracts =>
  tools.map((tool) => tool.contract) as never

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
export const servicesLayer = <T extends Tools>(tools: T): Layer.Layer<ServicesOf<T>, ErrorOf<T>, AppConfig> =>
  Layer.mergeAll(...(tools.map((tool) => tool.layer) as [Layer.Layer<any, unknown, AppConfig>])) as never
