/** Each tool's handlers, one line each: the compiler refuses an API (`Api.ts`) whose group has none here. */
import { Layer } from "effect"
import { UserAgentLive } from "./UserAgent/index.ts"
import { WageLive } from "./Wage/index.ts"

export const ToolsLive = Layer.mergeAll(UserAgentLive, WageLive)
