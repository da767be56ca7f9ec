/**
 * How many tokens of the caller's bucket a request to an endpoint takes, from its body as sent (a JSON object, before
 * its schema has checked it): one, unless the endpoint says otherwise with `.annotate(TokenCost, ...)` (a batch takes
 * one a string). The rate limit counts at least 1 and refuses a cost over the bucket's capacity (it could never pass).
 */
import { Context } from "effect"

export const TokenCost = Context.Reference<(body: object) => number>("app/TokenCost", {
  defaultValue: () => () => 1
})
