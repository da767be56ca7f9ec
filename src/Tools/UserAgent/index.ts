/** The user-agent tool: its contract served by the parser and generator service. */
import { Effect } from "effect"
import * as Tool from "../Tool.ts"
import { UserAgentContract } from "./Contract.ts"
import { UserAgents } from "./UserAgents.ts"

export const UserAgentTool = Tool.make({
  contract: UserAgentContract,
  handlers: UserAgents.useSync((userAgents): Tool.HandlersOf<typeof UserAgentContract> => ({
    userAgentParser: ({ payload }) =>
      Effect.map(
        payload.operation === "parse"
          ? userAgents.parse(payload.userAgent, payload.headers)
          : userAgents.generate(payload),
        (data) => ({ success: true as const, data })
      )
  })),
  layer: UserAgents.layer
})
