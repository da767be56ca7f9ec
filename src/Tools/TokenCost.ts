/** The tokens a request takes, from its body before its schema has checked it: one unless the endpoint says so. */
import { Context } from "effect"

export const TokenCost = Context.Reference<(body: object) => number>("app/TokenCost", { defaultValue: () => () => 1 })
