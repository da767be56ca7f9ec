/** The tools' services as one layer, for the server and the tests alike. */
import { Layer } from "effect"
import { UserAgents } from "../Tools/UserAgent/UserAgents.ts"
import { Wages } from "../Tools/Wage/Wages.ts"

export const ToolsLive = Layer.mergeAll(UserAgents.layer, Wages.layer)
