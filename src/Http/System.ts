/** Handlers of the `system` group. While draining, the edge answers 503 before a request gets here. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ToolsApi } from "../Api.ts"

const ok = { status: "ok" } as const

export const SystemHandlers = HttpApiBuilder.group(ToolsApi, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed(ok))
)
