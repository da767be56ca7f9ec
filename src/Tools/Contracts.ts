/**
 * The tools' contracts, one line each, in the order of `index.ts`'s tools (a test holds the two lists together).
 * The API is built from this list alone, so a client that imports it gets no implementation.
 */
import type * as Contract from "./Contract.ts"
import { UserAgentContract } from "./UserAgent/Contract.ts"
import { WageContract } from "./Wage/Contract.ts"

export const contracts = [UserAgentContract, WageContract] as const satisfies Contract.Contracts
