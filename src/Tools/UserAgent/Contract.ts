/** The user-agent tool's contract: parse a User-Agent string, or generate a realistic, current one. */
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { InvalidRequestWire } from "../../Errors.ts"
import * as Contract from "../Contract.ts"
import { UserAgentRequest, UserAgentResponse } from "./UserAgent.ts"

export const UserAgentParser = HttpApiEndpoint.post("userAgentParser", "/user-agent-parser", {
  payload: UserAgentRequest,
  success: UserAgentResponse,
  error: InvalidRequestWire
}).annotateMerge(
  OpenApi.annotations({
    summary: "Parse a user agent, or generate a realistic one",
    description:
      "`parse` names the browser, OS, device, CPU, engine and bot behind a User-Agent string, by family " +
      "(Chrome, Firefox, Safari, Edge, IE; Windows, macOS, iOS, Android, Linux; Desktop, Mobile, Tablet). " +
      "`generate` returns a current, real-world user agent, optionally of a given family, and its parse."
  })
)

export const UserAgentContract = Contract.make({ endpoints: [UserAgentParser] })
