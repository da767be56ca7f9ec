/**
 * Answers by string, bounded in entries and in characters, so long strings hold fewer. An answer is kept as one text,
 * its fields joined, until its string is asked for again, then as the answer itself: the answer's objects take ~500
 * bytes a string against ~120 for the text, and when every string is new each entry evicted is old garbage
 * (bench/README.md, "Where the service's memory goes").
 */
import { LRUCache } from "lru-cache"
import { DEVICE_TYPES } from "../Families.ts"
import type { UserAgentInfo } from "../Schemas.ts"

const CHARACTERS_PER_ENTRY = 512
const MIN_CHARACTERS = 65_536
// between the fields of a kept text; an answer with it in a field is kept as it is
const SEPARATOR = "\u0000"

export interface ParseCache {
  readonly get: (userAgent: string) => UserAgentInfo | undefined
  readonly set: (userAgent: string, info: UserAgentInfo) => void
}

const fieldsOf = (info: UserAgentInfo): ReadonlyArray<unknown> => [
  info.browser.name,
  info.browser.version,
  info.os.name,
  info.os.version,
  DEVICE_TYPES.indexOf(info.device.type),
  info.device.vendor,
  info.device.model,
  info.device.name,
  info.cpu.architecture,
  info.engine.name,
  info.engine.version,
  typeof info.bot.isBot === "boolean" ? Number(info.bot.isBot) : -1,
  info.bot.name,
  info.bot.category
]

/** The answer's text, or the answer itself where a field would not come back as it was. */
const compact = (userAgent: string, info: UserAgentInfo): string | UserAgentInfo => {
  const fields = fieldsOf(info)
  // the numbers are this file's own: -1 where the value has none
  const plain = (field: unknown) =>
    typeof field === "number" ? field !== -1 : typeof field === "string" && !field.includes(SEPARATOR)
  if (info.userAgent !== userAgent || !fields.every(plain)) return info
  return fields.join(SEPARATOR)
}

const answerOf = (userAgent: string, text: string): UserAgentInfo => {
  const [
    browser,
    browserVersion,
    os,
    osVersion,
    type,
    vendor,
    model,
    name,
    cpu,
    engine,
    engineVersion,
    isBot,
    bot,
    category
  ] = text.split(SEPARATOR)
  return {
    userAgent,
    browser: { name: browser!, version: browserVersion! },
    os: { name: os!, version: osVersion! },
    device: { type: DEVICE_TYPES[Number(type)]!, vendor: vendor!, model: model!, name: name! },
    cpu: { architecture: cpu! },
    engine: { name: engine!, version: engineVersion! },
    bot: { isBot: isBot === "1", name: bot!, category: category! }
  }
}

const charactersOf = (kept: string | UserAgentInfo, userAgent: string): number => {
  if (typeof kept === "string") return userAgent.length + kept.length
  let total = userAgent.length
  for (const part of [kept.browser, kept.os, kept.device, kept.cpu, kept.engine, kept.bot]) {
    for (const value of Object.values(part)) total += typeof value === "string" ? value.length : 1
  }
  return total
}

export const makeParseCache = (entries: number): ParseCache => {
  const kept = new LRUCache<string, string | UserAgentInfo>({
    max: entries,
    maxSize: Math.max(entries * CHARACTERS_PER_ENTRY, MIN_CHARACTERS),
    sizeCalculation: charactersOf
  })
  return {
    get: (userAgent) => {
      const found = kept.get(userAgent)
      if (typeof found !== "string") return found
      // asked for again: likely popular, so kept decoded from now on
      const info = answerOf(userAgent, found)
      kept.set(userAgent, info)
      return info
    },
    set: (userAgent, info) => {
      kept.set(userAgent, compact(userAgent, info))
    }
  }
}
