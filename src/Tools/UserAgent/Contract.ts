/** The user-agent tool's contract: parse a User-Agent string, or generate a realistic, current one. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { InvalidRequestWire } from "../../Errors.ts"
import { TokenCost } from "../TokenCost.ts"
import { MAX_BATCH, UserAgentRequest, UserAgentResponse } from "./UserAgent.ts"

/** A whole number from 1 to MAX_BATCH, else undefined. */
const batchSize = (n: unknown): number | undefined =>
  typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= MAX_BATCH ? n : undefined

/**
 * One token a user agent: a parse's `userAgents` (counted before its strings are checked) or a generate's `count`.
 * A size the schema refuses (not an array or integer, 0, over 100), or `userAgents` beside `userAgent`, costs one,
 * as any other refused body does.
 */
export const tokenCost = (body: object): number => {
  const { operation, userAgents, count } = body as Record<string, unknown>
  if (operation === "parse" && !("userAgent" in body))
    return (Array.isArray(userAgents) ? batchSize(userAgents.length) : undefined) ?? 1
  if (operation === "generate") return batchSize(count) ?? 1
  return 1
}

export const UserAgentParser = HttpApiEndpoint.post("userAgentParser", "/user-agent-parser", {
  payload: UserAgentRequest,
  success: UserAgentResponse,
  error: InvalidRequestWire
})
  .annotate(TokenCost, tokenCost)
  .annotateMerge(
    OpenApi.annotations({
      summary: "Parse a user agent, or generate a realistic one",
      description:
        "`parse` names the browser, OS, device, CPU, engine and bot behind a User-Agent string, by family " +
        "(Chrome, Firefox, Safari, Edge, IE; Windows, macOS, iOS, Android, Linux; Desktop, Mobile, Tablet). " +
        "`generate` returns a current, real-world user agent, optionally of a given family, and its parse."
    })
  )

export class UserAgentGroup extends HttpApiGroup.make("userAgent", { topLevel: true })
  .add(UserAgentParser)
  .annotateMerge(
    OpenApi.annotations({ title: "User agent", description: "Parse a User-Agent string, or generate one" })
  ) {}
