import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { InvalidRequestWire, RateLimitedWire } from "../../Errors.ts"
import { UserAgentBody, UserAgentResponse } from "./Schemas.ts"

export const UserAgentParser = HttpApiEndpoint.post("userAgentParser", "/user-agent-parser", {
  payload: UserAgentBody,
  success: UserAgentResponse,
  // a batch's further tokens are taken once it is decoded: 429, or 400 for more than a key's bucket holds
  error: [InvalidRequestWire, RateLimitedWire]
}).annotateMerge(
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
