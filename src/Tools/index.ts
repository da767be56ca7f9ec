/** The tools the service offers: one line each. Everything that lists tools is derived from this list. */
import * as Tool from "./Tool.ts"
import { UserAgentTool } from "./UserAgent/index.ts"
import { WageTool } from "./Wage/index.ts"

export const tools = [UserAgentTool, WageTool] as const

/** Every tool's services, for the server and the tests alike. */
export const ToolsLive = Tool.servicesLayer(tools)
