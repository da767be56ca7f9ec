/** Answers by string, bounded in entries and in characters, so long strings hold fewer. */
import { Context, Metric } from "effect"
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

export const makeParseCache = (entries: number): LRUCache<string, UserAgentInfo> =>
  new LRUCache({
    max: entries,
    maxSize: Math.max(entries * CHARACTERS_PER_ENTRY, MIN_CHARACTERS),
    sizeCalculation: charactersOf
  })

const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })
const hits = counter("ua_parse_cache_hits_total", "User-agent parses answered from the cache")
const misses = counter("ua_parse_cache_misses_total", "User-agent parses computed and cached")
// Updated in place in the default registry that /metrics reads; registered now, so they show 0 from the start.
const registry = Context.empty()
hits.updateUnsafe(0, registry)
misses.updateUnsafe(0, registry)

export const countHit = (): void => hits.updateUnsafe(1, registry)
export const countMiss = (): void => misses.updateUnsafe(1, registry)
