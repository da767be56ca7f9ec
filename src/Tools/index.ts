/** The tools the service serves: one line each, in the order of `Contracts.ts` (a test holds the two together). */
import * as Tool from "./Tool.ts"
import { UserAgentTool } from "./UserAgent/index.ts"
import { WageTool } from "./Wage/index.ts"

export const tools = [UserAgentTool, WageTool] as const

/** Every tool's services, for the server and the tests alike. */
export const ToolsLive = Tool.servicesLayer(tools)
