// Bytes in slots, not strings in lru-cache: evicted ones were old garbage (ua-cold peak RSS 160-163, now 130-136 MB).
/**
 * Answers by string, bounded in entries and in bytes, so long strings hold fewer. `lru-cache` keeps the order of use
 * and evicts; an entry there is two numbers, the string's 32-bit hash and its first slot. The entry's bytes, the
 * string's UTF-8 then its answer's fields joined, lie in 128-byte slots of `Uint8Array` chunks, chained, reused once
 * evicted: a string never asked for again leaves no garbage. The stored string is compared byte for byte, so a
 * colliding hash is a miss (and the newer string replaces the older). A string asked for again is also kept decoded,
 * so a popular string costs no decoding (bench/README.md, "Where the service's memory goes").
 */
import { LRUCache } from "lru-cache"
import { DEVICE_TYPES } from "../Families.ts"
import type { UserAgentInfo } from "../Schemas.ts"

const SLOT = 128
const BYTES_PER_ENTRY = 512
const MIN_BYTES = 65_536
const CHUNK_SLOTS = 512
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

// the numbers are this file's own: -1 where the value has none
const plain = (field: unknown) =>
  typeof field === "number" ? field !== -1 : typeof field === "string" && !field.includes(SEPARATOR)

/** The answer's text, or "" where a field would not come back as it was (then the answer is kept as it is). */
const textOf = (userAgent: string, info: UserAgentInfo): string => {
  const fields = fieldsOf(info)
  return info.userAgent === userAgent && fields.every(plain) ? fields.join(SEPARATOR) : ""
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
    kind
  ] = text.split(SEPARATOR)
  return {
    userAgent,
    browser: { name: browser!, version: browserVersion! },
    os: { name: os!, version: osVersion! },
    device: { type: DEVICE_TYPES[Number(type)]!, vendor: vendor!, model: model!, name: name! },
    cpu: { architecture: cpu! },
    engine: { name: engine!, version: engineVersion! },
    bot: { isBot: isBot === "1", name: bot!, category: kind! }
  }
}

export const makeParseCache = (entries: number): ParseCache => {
  const maxSlots = Math.ceil(Math.max(entries * BYTES_PER_ENTRY, MIN_BYTES) / SLOT)
  const chunks: Array<Uint8Array> = []
  // by slot: the next of its entry's (-1: the last); by an entry's first slot: its key's bytes and all its bytes
  // (arrays that grow as slots are taken: a cache of millions of entries is mostly never filled)
  const nextSlot: Array<number> = []
  const keyBytes: Array<number> = []
  const totalBytes: Array<number> = []
  const decoded: Array<UserAgentInfo | undefined> = []
  // slots freed, and how many were ever taken
  const freeSlots: Array<number> = []
  let taken = 0
  let scratch = new Uint8Array(8192)
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()

  const release = (first: number) => {
    decoded[first] = undefined
    for (let s = first; s !== -1; s = nextSlot[s]!) freeSlots.push(s)
  }
  const kept = new LRUCache<number, number>({ max: entries, dispose: release })
  // one options object: lru-cache's default is a new one a call
  const options = {}

  const takeSlot = (): number => {
    const reused = freeSlots.pop()
    if (reused !== undefined) return reused
    if (taken % CHUNK_SLOTS === 0) chunks.push(new Uint8Array(CHUNK_SLOTS * SLOT))
    taken += 1
    return taken - 1
  }
  const chunkOf = (s: number) => chunks[Math.floor(s / CHUNK_SLOTS)]!
  const offsetOf = (s: number) => (s % CHUNK_SLOTS) * SLOT

  /** `scratch` of `size` bytes at least, its first `keep` kept. */
  const room = (size: number, keep: number) => {
    if (scratch.length >= size) return
    const bigger = new Uint8Array(2 * size)
    bigger.set(scratch.subarray(0, keep))
    scratch = bigger
  }
  /** The UTF-8 of `text` into `scratch` from `at`; the end. */
  const encode = (text: string, at: number): number => {
    room(at + text.length * 3, at)
    return at + encoder.encodeInto(text, scratch.subarray(at)).written
  }

  /** Whether the entry at `first` starts with the first `end` bytes of `scratch`. */
  const holds = (first: number, end: number): boolean => {
    let at = 0
    for (let s = first; s !== -1 && at < end; s = nextSlot[s]!) {
      const bytes = chunkOf(s)
      const offset = offsetOf(s)
      for (let i = 0; i < SLOT && at < end; i++) {
        if (bytes[offset + i] !== scratch[at]) return false
        at += 1
      }
    }
    return true
  }

  const get = (userAgent: string): UserAgentInfo | undefined => {
    const first = kept.get(Bun.hash.cityHash32(userAgent), options)
    if (first === undefined) return undefined
    const known = decoded[first]
    if (known?.userAgent === userAgent) return known
    const key = encode(userAgent, 0)
    if (key !== keyBytes[first] || !holds(first, key)) return undefined
    if (known !== undefined) return known
    // the entry's bytes gathered into `scratch` (its key again, then its text), and the text decoded
    const total = totalBytes[first]!
    room(total, 0)
    let at = 0
    for (let s = first; s !== -1; s = nextSlot[s]!) {
      scratch.set(chunkOf(s).subarray(offsetOf(s), offsetOf(s) + Math.min(SLOT, total - at)), at)
      at += SLOT
    }
    const info = answerOf(userAgent, decoder.decode(scratch.subarray(key, total)))
    decoded[first] = info
    return info
  }

  const set = (userAgent: string, info: UserAgentInfo): void => {
    const text = textOf(userAgent, info)
    const key = encode(userAgent, 0)
    const total = encode(text, key)
    // a slot at least, so an empty string has an entry too
    const need = Math.max(1, Math.ceil(total / SLOT))
    if (need > maxSlots) return
    while (kept.size > 0 && freeSlots.length + maxSlots - taken < need) kept.pop()
    let first = -1
    let last = -1
    for (let n = 0; n < need; n++) {
      const s = takeSlot()
      chunkOf(s).set(scratch.subarray(n * SLOT, Math.min((n + 1) * SLOT, total)), offsetOf(s))
      nextSlot[s] = -1
      if (last === -1) first = s
      else nextSlot[last] = s
      last = s
    }
    keyBytes[first] = key
    totalBytes[first] = total
    decoded[first] = text === "" ? info : undefined
    kept.set(Bun.hash.cityHash32(userAgent), first, options)
  }

  return { get, set }
}
