import { Effect, Layer } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BatchTokens, ToolsApi } from "../../Api.ts"
import type { InvalidRequest, RateLimited } from "../../Errors.ts"
import type { UserAgentInfo, UserAgentRequest, UserAgentResponse } from "./Schemas.ts"
import { UserAgents } from "./Service.ts"
import { Slicer } from "./Slicer.ts"

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

// Written unencoded: the schema would re-check what the parser typed, most of the handler's cost (bench/README.md);
// tests hold the answer equal to the schema's encoding.
const respond = (response: UserAgentResponse) => HttpServerResponse.jsonUnsafe(response)

/** How many strings a request parses or generates: a batch takes a token for each. */
const sizeOf = (payload: UserAgentRequest): number =>
  payload.operation === "generate" ? (payload.count ?? 1) : "userAgents" in payload ? payload.userAgents.length : 1

export const UserAgentHandlers = HttpApiBuilder.group(
  ToolsApi,
  "userAgent",
  Effect.fnUntraced(function* (handlers) {
    const userAgents = yield* UserAgents
    const tokens = yield* BatchTokens
    return handlers.handle("userAgentParser", ({ payload }) =>
      Effect.andThen(tokens.take(sizeOf(payload)), Effect.map(answer(userAgents, payload), respond))
    )
  })
)

export const UserAgentLive = UserAgentHandlers.pipe(
  Layer.provide(UserAgents.layer),
  // a costly parse takes turns with the other requests
  Layer.provide(Slicer.layer)
)
