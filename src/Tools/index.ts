/**
 * The tools served, one line each: each tool's handlers with its services. `Api.ts` lists their groups; the compiler
 * refuses an API whose group has no handlers here.
 */
import { Layer } from "effect"
import { UserAgentLive } from "./UserAgent/index.ts"
import { WageLive } from "./Wage/index.ts"

export const ToolsLive = Layer.mergeAll(UserAgentLive, WageLive)
