/**
 * The parse cache: a least-recently-used map of user agent to answer, its entries kept as bytes in slots of
 * `Uint8Array` chunks instead of objects on the JS heap. Under a stream of new strings (every parse a miss) evicted
 * answers were old-generation garbage, seven objects and their strings each (ua-cold's peak RSS, bench/README.md
 * "Memory"); here an entry is a few numbers in plain arrays and bytes in reused slots, so evicting a string that was
 * never asked for again leaves no garbage. One that was is also kept decoded, so a popular string costs no decoding.
 *
 * An entry is the string's UTF-8 then its answer's fields joined by a separator, spread over 128-byte slots chained
 * in order. Entries are found by a 32-bit hash of the string; the stored string is compared byte for byte, so a
 * collision is a miss (and the newer string replaces the older). At most `entries` entries, and at most
 * `entries` × 512 bytes of slots: a cache of long strings holds fewer of them.
 */
import type { UserAgentInfo } from "./UserAgent.ts"

const SLOT = 128
const SLOTS_PER_ENTRY = 4
const CHUNK_SLOTS = 512
const SEP = "\u0001"
const NONE = -1

export interface ParseCache {
  readonly get: (userAgent: string) => UserAgentInfo | undefined
  readonly set: (userAgent: string, info: UserAgentInfo) => void
}

const fieldsOf = (i: UserAgentInfo): Array<unknown> => [
  i.browser.name,
  i.browser.version,
  i.os.name,
  i.os.version,
  i.device.type,
  i.device.vendor,
  i.device.model,
  i.device.name,
  i.cpu.architecture,
  i.engine.name,
  i.engine.version,
  i.bot.isBot ? "1" : "0",
  i.bot.name,
  i.bot.category
]

const split = (userAgent: string, text: string): UserAgentInfo => {
  const f = text.split(SEP) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string
  ]
  return {
    userAgent,
    browser: { name: f[0], version: f[1] },
    os: { name: f[2], version: f[3] },
    device: { type: f[4] as UserAgentInfo["device"]["type"], vendor: f[5], model: f[6], name: f[7] },
    cpu: { architecture: f[8] },
    engine: { name: f[9], version: f[10] },
    bot: { isBot: f[11] === "1", name: f[12], category: f[13] }
  }
}

export const makeParseCache = (entries: number): ParseCache => {
  const maxSlots = Math.max(entries * SLOTS_PER_ENTRY, CHUNK_SLOTS)
  const chunks: Array<Uint8Array> = []
  const nextSlot: Array<number> = []
  const freeSlots: Array<number> = []
  // per entry, by id; ids of removed entries are reused
  const hashOf: Array<number> = []
  const firstSlot: Array<number> = []
  const keyBytes: Array<number> = []
  const totalBytes: Array<number> = []
  const prev: Array<number> = []
  const next: Array<number> = []
  const freeIds: Array<number> = []
  // the answer of an entry found at least once (strings seen once, the ones that churn, stay bytes alone)
  const decoded: Array<UserAgentInfo | undefined> = []
  const byHash = new Map<number, number>()
  let head = NONE // most recently used
  let tail = NONE
  let scratch = new Uint8Array(8192)
  let gathered = new Uint8Array(8192)
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()

  const unlink = (id: number) => {
    if (prev[id] !== NONE) next[prev[id]!] = next[id]!
    else head = next[id]!
    if (next[id] !== NONE) prev[next[id]!] = prev[id]!
    else tail = prev[id]!
  }
  const pushFront = (id: number) => {
    prev[id] = NONE
    next[id] = head
    if (head !== NONE) prev[head] = id
    head = id
    if (tail === NONE) tail = id
  }
  const remove = (id: number) => {
    unlink(id)
    byHash.delete(hashOf[id]!)
    decoded[id] = undefined
    for (let s = firstSlot[id]!; s !== NONE; s = nextSlot[s]!) freeSlots.push(s)
    freeIds.push(id)
  }
  const takeSlot = (): number => {
    const free = freeSlots.pop()
    if (free !== undefined) return free
    const s = chunks.length * CHUNK_SLOTS
    chunks.push(new Uint8Array(CHUNK_SLOTS * SLOT))
    for (let i = CHUNK_SLOTS - 1; i > 0; i--) freeSlots.push(s + i)
    return s
  }
  const slotsLeft = () => freeSlots.length + maxSlots - chunks.length * CHUNK_SLOTS

  /** The UTF-8 of `text` into `scratch` from `at`, growing it when needed; the end. */
  const encode = (text: string, at: number): number => {
    if (scratch.length < at + text.length * 3) {
      const bigger = new Uint8Array(2 * (at + text.length * 3))
      bigger.set(scratch.subarray(0, at))
      scratch = bigger
    }
    return at + encoder.encodeInto(text, scratch.subarray(at)).written
  }

  const gather = (id: number): Uint8Array => {
    const total = totalBytes[id]!
    if (gathered.length < total) gathered = new Uint8Array(2 * total)
    let at = 0
    for (let s = firstSlot[id]!; s !== NONE; s = nextSlot[s]!) {
      const offset = (s % CHUNK_SLOTS) * SLOT
      const n = Math.min(SLOT, total - at)
      gathered.set(chunks[Math.floor(s / CHUNK_SLOTS)]!.subarray(offset, offset + n), at)
      at += n
    }
    return gathered
  }

  const get = (userAgent: string): UserAgentInfo | undefined => {
    const id = byHash.get(Bun.hash.cityHash32(userAgent))
    if (id === undefined) return undefined
    const known = decoded[id]
    if (known !== undefined) {
      if (known.userAgent !== userAgent) return undefined
      unlink(id)
      pushFront(id)
      return known
    }
    const key = keyBytes[id]!
    if (encode(userAgent, 0) !== key) return undefined
    const bytes = gather(id)
    for (let i = 0; i < key; i++) if (bytes[i] !== scratch[i]) return undefined
    unlink(id)
    pushFront(id)
    return (decoded[id] = split(userAgent, decoder.decode(bytes.subarray(key, totalBytes[id]))))
  }

  const set = (userAgent: string, info: UserAgentInfo): void => {
    const fields = fieldsOf(info)
    // only strings are cached (anything else would come back as its text), and a field holding the separator could
    // not be split back: such an answer is not cached
    if (info.userAgent !== userAgent || !fields.every((f) => typeof f === "string" && !f.includes(SEP))) return
    const text = fields.join(SEP)
    const key = encode(userAgent, 0)
    const total = encode(text, key)
    const need = Math.ceil(total / SLOT)
    if (need > maxSlots) return
    const hash = Bun.hash.cityHash32(userAgent)
    const same = byHash.get(hash)
    if (same !== undefined) remove(same)
    while (tail !== NONE && (byHash.size >= entries || slotsLeft() < need)) remove(tail)
    const id = freeIds.pop() ?? hashOf.length
    let last = NONE
    for (let at = 0; at < total; at += SLOT) {
      const s = takeSlot()
      chunks[Math.floor(s / CHUNK_SLOTS)]!.set(
        scratch.subarray(at, Math.min(at + SLOT, total)),
        (s % CHUNK_SLOTS) * SLOT
      )
      nextSlot[s] = NONE
      if (last === NONE) firstSlot[id] = s
      else nextSlot[last] = s
      last = s
    }
    hashOf[id] = hash
    keyBytes[id] = key
    totalBytes[id] = total
    byHash.set(hash, id)
    pushFront(id)
  }

  return { get, set }
}
