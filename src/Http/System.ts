/** Handlers of the `system` group. While draining, the edge answers 503 before a request gets here. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { ToolsApi } from "../Api.ts"

const ok = { status: "ok" } as const

export const SystemLive = HttpApiBuilder.group(ToolsApi, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed(ok))
)
