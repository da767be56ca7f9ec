/** What API_KEYS and API_KEYS_FILE say: the keys' digests, where the short ones are, and a key's own limit and name. */
import { Result } from "effect"

/** Hex SHA-256 of the UTF-8 text; `Bun.SHA256.hash`, the fastest on Bun, as it runs on every authenticated request. */
export const sha256Hex = (text: string): string => Bun.SHA256.hash(text, "hex")

// A key (or `sha256:` and its digest, space allowed after the colon as ever), then its settings.
const entryLine = /^(?:(sha256:)\s*)?(\S*)\s*(.*)$/i
const hex64 = /^[0-9a-f]{64}$/i
// A header value carries Latin-1 at most and `Bearer <key>` splits at spaces: a key outside this can never match.
const visibleAscii = /^[\x21-\x7e]+$/
const UNUSABLE = "holds a space or a character outside visible ASCII, so no request can ever carry it"
const UNUSABLE_LINE = `${UNUSABLE} (a comment is a line of its own, starting with #)`
const NOT_DIGEST = 'starts with "sha256:" but is not followed by 64 hexadecimal digits'
// A template whose key came out empty writes ` limit=500 name=acme`: its settings must never become a key.
const setting = /^(?:limit|name)=/i
const NO_KEY =
  "starts with a setting (limit= or name=) where its key should be: a line is a key, or sha256: and a digest, " +
  "then its settings"
const IN_BOTH =
  "a key is given in API_KEYS or in API_KEYS_FILE, not both (its limit would be ambiguous, and removing it from the " +
  "file would not revoke it)"
/** Shorter keys get a warning: Redis key names and log ids are unsalted digest prefixes, open to offline guessing. */
export const SHORT_KEY = 20
// Names go into log lines and metric labels as they are; `key_` is how keys without a name are shown.
const nameValue = /^(?!key_)[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
const MAX_LIMIT = 1_000_000_000
const BAD = {
  limit: `has a bad limit: limit= takes a whole number of requests a minute from 1 to ${MAX_LIMIT}`,
  name: 'has a bad name: name= takes 1 to 64 letters, digits, ".", "_" or "-", from a letter or digit, not "key_"'
}

/** A key's own settings from its line; the absent ones are RATE_LIMIT_PER_MINUTE and `key_<8 hex>`. */
export type Own = { limit?: number; name?: string }

/** The digests of the keys read, where the keys shorter than SHORT_KEY are (`line 3`, `key 2`), and settings. */
export interface Keys {
  readonly digests: ReadonlyArray<string>
  readonly short: ReadonlyArray<string>
  /** By digest, the keys whose line gives settings; absent when no line does. */
  readonly own?: ReadonlyMap<string, Own>
}

const isLimit = (value: string) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_LIMIT

const settingsOf = (text: string, names: Map<string, number>, line: number): Own | string => {
  const own: Own = {}
  const words = text === "" ? [] : text.split(/\s+/)
  for (const word of words) {
    const [, field, value = ""] = /^(limit|name)=(.*)$/.exec(word) ?? []
    // A word that is no setting: most likely a key holding a space, or a comment after it.
    if (field !== "limit" && field !== "name") return UNUSABLE_LINE
    if (field in own) return `gives ${field} twice`
    if (field === "limit") {
      if (!isLimit(value)) return BAD.limit
      own.limit = Number(value)
      continue
    }
    if (!nameValue.test(value)) return BAD.name
    const named = names.get(value)
    if (named !== undefined) return `has the name of line ${named}: names are unique`
    own.name = value
    names.set(value, line)
  }
  return own
}

/** Where each of API_KEYS' digests first is, by position from 1. */
const positionsOf = (digests: ReadonlyArray<string>) => {
  const positions = new Map<string, number>()
  for (const [index, digest] of digests.entries()) {
    if (!positions.has(digest)) positions.set(digest, index + 1)
  }
  return positions
}

/**
 * The keys in an API_KEYS_FILE's text (its format: docs/OPERATIONS.md), none of them one of `listed` (API_KEYS'
 * digests), or which line is wrong, never quoting it.
 */
export const parseKeysFile = (text: string, listed: ReadonlyArray<string> = []): Result.Result<Keys, string> => {
  const digests: Array<string> = []
  const short: Array<string> = []
  const own = new Map<string, Own>()
  const lineOf = new Map<string, number>()
  const names = new Map<string, number>()
  const inList = positionsOf(listed)
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  for (const [index, raw] of lines.entries()) {
    const lineNumber = index + 1
    const line = raw.trim()
    if (line === "" || line.startsWith("#")) continue
    const [, digestPrefix, key = "", rest = ""] = entryLine.exec(line) ?? []
    const plain = digestPrefix === undefined
    if (plain && setting.test(key)) return Result.fail(`line ${lineNumber} ${NO_KEY}`)
    const settings = settingsOf(rest, names, lineNumber)
    if (typeof settings === "string") return Result.fail(`line ${lineNumber} ${settings}`)
    const usable = plain ? visibleAscii.test(key) : hex64.test(key)
    if (!usable) return Result.fail(`line ${lineNumber} ${plain ? UNUSABLE_LINE : NOT_DIGEST}`)
    if (plain && key.length < SHORT_KEY) short.push(`line ${lineNumber}`)
    const digest = plain ? sha256Hex(key) : key.toLowerCase()
    const listedAt = inList.get(digest)
    if (listedAt !== undefined)
      return Result.fail(`line ${lineNumber} is the key of API_KEYS key ${listedAt}: ${IN_BOTH}`)
    const first = lineOf.get(digest)
    const withSettings = Object.keys(settings).length > 0
    if (first !== undefined && (withSettings || own.has(digest))) {
      return Result.fail(`line ${lineNumber} repeats the key of line ${first}: give a key's settings on one line`)
    }
    lineOf.set(digest, lineNumber)
    if (withSettings) own.set(digest, settings)
    digests.push(digest)
  }
  return Result.succeed(own.size === 0 ? { digests, short } : { digests, short, own })
}

/** Comma-separated keys; surrounding space trimmed, empty entries ignored; the failure names the key by position. */
export const parseKeyList = (text: string): Result.Result<Keys, string> => {
  const keys = text.split(",").flatMap((key) => key.trim() || [])
  const bad = keys.findIndex((key) => !visibleAscii.test(key))
  if (bad !== -1) return Result.fail(`key ${bad + 1} of ${keys.length} ${UNUSABLE}`)
  const short = keys.flatMap((key, index) => (key.length < SHORT_KEY ? [`key ${index + 1}`] : []))
  return Result.succeed({ digests: keys.map(sha256Hex), short })
}
