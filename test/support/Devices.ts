/** The device database's lookups as the service builds them, and the parser with them: what the service answers. */
import { Effect } from "effect"
import { loadLookups } from "../../src/Tools/UserAgent/device/Database.ts"
import { parseUserAgent as parse } from "../../src/Tools/UserAgent/parse/Normalise.ts"

export const { identify, scan } = await Effect.runPromise(loadLookups)

/** `parseUserAgent` with the service's device database. */
export const parseUserAgent: typeof parse = (ua, headers, options) =>
  parse(ua, headers, { devices: identify, ...options })
