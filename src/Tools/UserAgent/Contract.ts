/** The user-agent tool's contract: parse a User-Agent string, or generate a realistic, current one. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { InvalidRequestWire } from "../../Errors.ts"
import { TokenCost } from "../TokenCost.ts"
import { MAX_BATCH, UserAgentRequest, UserAgentResponse } from "./Schemas.ts"

const batchSize = (n: unknown): number | undefined =>
  typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= MAX_BATCH ? n : undefined

/** One token a user agent of a batch; a size the schema refuses costs one, like every refused body. */
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
