/** The user-agent tool: its contract served by the parser and generator service. */
import { Effect } from "effect"
import type { InvalidRequest } from "../../Errors.ts"
import * as Tool from "../Tool.ts"
import { UserAgentContract } from "./Contract.ts"
import type { UserAgentInfo, UserAgentRequest, UserAgentResponse } from "./UserAgent.ts"
import { UserAgents } from "./UserAgents.ts"

/** A request's answer: one result, or for `userAgents` or `count` an array of them in order. */
export const answer = (
  userAgents: UserAgents["Service"],
  payload: UserAgentRequest
): Effect.Effect<UserAgentResponse, InvalidRequest> => {
  const data: Effect.Effect<UserAgentInfo | ReadonlyArray<UserAgentInfo>, InvalidRequest> =
    payload.operation === "generate"
      ? payload.count === undefined
        ? userAgents.generate(payload)
        : userAgents.generateMany(payload, payload.count)
      : "userAgents" in payload
        ? userAgents.parseMany(payload.userAgents)
        : userAgents.parse(payload.userAgent, payload.headers)
  return Effect.map(data, (data) => ({ success: true as const, data }))
}

export const UserAgentTool = Tool.make({
  contract: UserAgentContract,
  handlers: UserAgents.useSync((userAgents): Tool.HandlersOf<typeof UserAgentContract> => ({
    userAgentParser: ({ payload }) => answer(userAgents, payload)
  })),
  layer: UserAgents.layer
})
