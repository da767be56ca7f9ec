/** Handlers of the `tools` group: decoded payload in, the service's answer out in the success envelope. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ToolsApi } from "../Api.ts"
import { assumptions } from "../Tools/Wage/Wage.ts"
import { UserAgents } from "../Tools/UserAgent/UserAgents.ts"
import { Wages } from "../Tools/Wage/Wages.ts"

export const ToolsHandlers = HttpApiBuilder.group(
  ToolsApi,
  "tools",
  Effect.fnUntraced(function* (handlers) {
    const userAgents = yield* UserAgents
    const wages = yield* Wages
    return handlers.handleAll({
      userAgentParser: ({ payload }) =>
        Effect.map(
          payload.operation === "parse"
            ? userAgents.parse(payload.userAgent, payload.headers)
            : userAgents.generate(payload),
          (data) => ({ success: true as const, data })
        ),
      wageEstimator: ({ payload }) =>
        Effect.map(wages.estimate(payload), (estimates) => ({ success: true as const, estimates, assumptions }))
    })
  })
)
