/**
 * What a tool promises its clients: its endpoints, served under /v1/tools behind the API key and the rate limit. A
 * contract imports no implementation, so the API built from contracts (`Api.ts`) bundles into a client without a
 * parser, a data set or server code.
 */
import { Context } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"

export interface Contract<Endpoint extends HttpApiEndpoint.Constraint = any> {
  readonly endpoints: readonly [Endpoint, ...Array<Endpoint>]
}

/** A contract, its endpoint types kept. */
export const make = <const Endpoint extends HttpApiEndpoint.Constraint>(
  contract: Contract<Endpoint>
): Contract<Endpoint> => contract

export type Contracts = readonly [Contract, ...Array<Contract>]
export type EndpointOf<T extends Contracts> = T[number]["endpoints"][number]

/** Every contract's endpoints, for the API's `tools` group. */
export const endpoints = <const T extends Contracts>(contracts: T): readonly [EndpointOf<T>, ...Array<EndpointOf<T>>] =>
  contracts.flatMap((contract) => contract.endpoints) as never
/**
 * How many tokens of the caller's bucket a request to an endpoint takes, from its body as sent (before its schema
 * has checked it): one, unless the endpoint says otherwise with `.annotate(TokenCost, ...)` (a batch takes one a
 * string). At least 1; the rate limit refuses a cost over the bucket's capacity (it could never pass).
 */
export const TokenCost = Context.Reference<(body: unknown) => number>("app/TokenCost", {
  defaultValue: () => () => 1
})
