/**
 * Many strings are parsed a group at a time, each group in two passes: ua-parser-js's reading of each string
 * (`readUserAgent`), then the rules and lookups of each (`finishParse`). That costs less CPU a string than both passes
 * a string at a time, most likely because each pass's code and patterns stay in the CPU's caches (scripts/README.md,
 * "Two passes a group").
 */
import type { Lookup } from "../device/Lookup.ts"
import type { UserAgentInfo } from "../Schemas.ts"
import { finishParse, type Reading, readUserAgent } from "./Normalise.ts"

/** A group's characters: about 20 common strings, or 4 of the slowest short ones we know (~0.4 ms each), so it takes
 * about one slice (Slicer.ts). */
export const GROUP_CHARACTERS = 2_048

/** The strings in order, in groups of GROUP_CHARACTERS at most (a longer string alone). */
export const groupsOf = (userAgents: Iterable<string>): Array<Array<string>> => {
  const groups: Array<Array<string>> = []
  let group: Array<string> = []
  let characters = 0
  for (const userAgent of userAgents) {
    if (group.length > 0 && characters + userAgent.length > GROUP_CHARACTERS) {
      groups.push(group)
      group = []
      characters = 0
    }
    group.push(userAgent)
    characters += userAgent.length
  }
  if (group.length > 0) groups.push(group)
  return groups
}

const unknown = (userAgent: string): UserAgentInfo => ({
  userAgent,
  browser: { name: "Unknown", version: "Unknown" },
  os: { name: "Unknown", version: "Unknown" },
  device: { type: "Unknown", vendor: "Unknown", model: "Unknown", name: "Unknown" },
  cpu: { architecture: "Unknown" },
  engine: { name: "Unknown", version: "Unknown" },
  bot: { isBot: false, name: "Unknown", category: "Unknown" }
})

// The parser is third-party code fed arbitrary input: a throw must not become a 500 for one odd string.
export const safeRead = (userAgent: string, headers?: Readonly<Record<string, string>>): Reading | undefined => {
  try {
    return readUserAgent(userAgent, headers)
  } catch {
    return undefined
  }
}
export const safeFinish = (devices: Lookup, userAgent: string, reading: Reading | undefined): UserAgentInfo => {
  if (reading === undefined) return unknown(userAgent)
  try {
    return finishParse(userAgent, reading, { devices })
  } catch {
    return unknown(userAgent)
  }
}
/** The strings' answers, each pass over all of them: first every string read, then each finished. */
export const parseGroup = (devices: Lookup, userAgents: ReadonlyArray<string>): Array<UserAgentInfo> => {
  const readings = userAgents.map((userAgent) => safeRead(userAgent))
  return userAgents.map((userAgent, i) => safeFinish(devices, userAgent, readings[i]))
}
