import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { InvalidRequestWire } from "../../Errors.ts"
import { TokenCost } from "../TokenCost.ts"
import { MAX_BATCH, UserAgentRequest, UserAgentResponse } from "./Schemas.ts"

/** One token a user agent of a batch; a size the schema refuses costs one, like every refused body. */
export const tokenCost = (body: object): number => {
  const { operation, userAgents, count } = body as Record<string, unknown>
  const batch = operation === "parse" && !("userAgent" in body) && Array.isArray(userAgents) ? userAgents.length : 1
  const n = operation === "generate" ? count : batch
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= MAX_BATCH ? n : 1
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
