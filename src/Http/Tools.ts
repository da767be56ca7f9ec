/** Handlers of the `tools` group: decoded payload in, the service's answer out in the success envelope. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Schema } from "effect"
import { ToolsApi } from "../Api.ts"
import { type UserAgentInfo, UserAgentResponse } from "../Domain/UserAgent.ts"
import { assumptions, type Estimates, WageResponse } from "../Domain/Wage.ts"
import { UserAgents } from "../Services/UserAgents.ts"
import { Wages } from "../Services/Wages.ts"

const encodeUserAgentResponse = Schema.encodeSync(UserAgentResponse)
const encodeWageResponse = Schema.encodeSync(WageResponse)

const json = (body: string) => HttpServerResponse.text(body, { contentType: "application/json" })

/**
 * The 200 body of a parse or generate answer, encoded by its schema and serialised once per answer object: the
 * parse cache and the generator's pools hand out the same object for the same answer, so a repeated user agent
 * costs neither the schema's encoding nor JSON.stringify again. The bytes are those HttpApi would send.
 */
const bodies = new WeakMap<UserAgentInfo, string>()
const userAgentAnswer = (data: UserAgentInfo) => {
  let body = bodies.get(data)
  if (body === undefined) {
    body = JSON.stringify(encodeUserAgentResponse({ success: true, data }))
    bodies.set(data, body)
  }
  return json(body)
}

/**
 * The 200 body of a wage answer, encoded by its schema as HttpApi would, but in one synchronous call: HttpApi's
 * own encoding of a returned value runs as a dozen steps of the request's fiber.
 */
const wageAnswer = (estimates: Estimates) =>
  json(JSON.stringify(encodeWageResponse({ success: true, estimates, assumptions })))

export const ToolsLive = HttpApiBuilder.group(ToolsApi, "tools", (handlers) =>
  Effect.gen(function* () {
    const userAgents = yield* UserAgents
    const wages = yield* Wages
    return handlers
      .handle("userAgentParser", ({ payload }) =>
        Effect.map(
          payload.operation === "parse"
            ? userAgents.parse(payload.userAgent, payload.headers)
            : userAgents.generate(payload),
          userAgentAnswer
        )
      )
      .handle("wageEstimator", ({ payload }) => Effect.map(wages.estimate(payload), wageAnswer))
  })
)
