/** Answers by string, bounded in entries and in characters, so long strings hold fewer. */
import { LRUCache } from "lru-cache"
import type { UserAgentInfo } from "../Schemas.ts"

const CHARACTERS_PER_ENTRY = 512
const MIN_CHARACTERS = 65_536

const charactersOf = (info: UserAgentInfo, userAgent: string): number => {
  let total = userAgent.length
  for (const part of [info.browser, info.os, info.device, info.cpu, info.engine, info.bot]) {
    for (const value of Object.values(part)) total += typeof value === "string" ? value.length : 1
  }
  return total
}

export type ParseCache = LRUCache<string, UserAgentInfo>

export const makeParseCache = (entries: number): ParseCache =>
  new LRUCache({
    max: entries,
    maxSize: Math.max(entries * CHARACTERS_PER_ENTRY, MIN_CHARACTERS),
    sizeCalculation: charactersOf
  })
