/** The tools' services as one layer, for the server and the tests alike. */
import { Layer } from "effect"
import { UserAgents } from "./UserAgents.ts"
import { Wages } from "./Wages.ts"

export const ToolsLive = Layer.mergeAll(UserAgents.layer, Wages.layer)
