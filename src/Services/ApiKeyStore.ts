/**
 * API keys from API_KEYS (comma-separated) and API_KEYS_FILE (one a line, `#` comments, `sha256:<hex>` digests).
 * Only SHA-256 digests are kept; a presented key is looked up by its digest, and the caller is named
 * `key_<first 8 hex of the digest>`, so no key's text ever reaches a log, an error or a metric. The file is read only
 * as a regular file of bounded size (RegularFile.ts); `reload` (SIGHUP) reads it again once it is finished
 * (FinishedFile.ts), and a file that fails keeps the keys in use.
 */
import { randomBytes } from "node:crypto"
import { Console, Context, Effect, Layer, Redacted, Result, Semaphore } from "effect"
import { AppConfig, InvalidConfig } from "../Config.ts"
import { readFinishedFile } from "./FinishedFile.ts"
import { readRegularFile } from "./RegularFile.ts"

/** Hex SHA-256 of the UTF-8 text; `Bun.SHA256.hash`, the fastest on Bun, as it runs on every authenticated request. */
export const sha256Hex = (text: string): string => Bun.SHA256.hash(text, "hex")

const digestLine = /^sha256:(.*)$/i
const hex64 = /^[0-9a-f]{64}$/i
// A header value carries Latin-1 at most and `Bearer <key>` splits at spaces: a key outside this can never match.
const visibleAscii = /^[\x21-\x7e]+$/
const UNUSABLE = "holds a space or a character outside visible ASCII, so no request can ever carry it"
/** Shorter keys get a warning: Redis key names and log ids are unsalted digest prefixes, open to offline guessing. */
export const SHORT_KEY = 20

/** The digests of the keys read, and where the keys shorter than SHORT_KEY are (`line 3`, `key 2`). */
export interface Keys {
  readonly digests: ReadonlyArray<string>
  readonly short: ReadonlyArray<string>
}

/**
 * The keys in an API_KEYS_FILE's text, or the sentence saying which line is wrong. Lines are trimmed; blank lines
 * and lines starting with `#` are skipped; `sha256:<64 hex>` gives a key by its digest (any case).
 */
export const parseKeysFile = (text: string): Result.Result<Keys, string> => {
  const digests: Array<string> = []
  const short: Array<string> = []
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim()
    if (line === "" || line.startsWith("#")) continue
    const digest = digestLine.exec(line)?.[1]?.trim()
    if (digest === undefined) {
      if (!visibleAscii.test(line)) {
        return Result.fail(`line ${index + 1} ${UNUSABLE} (a comment is a line of its own, starting with #)`)
      }
      if (line.length < SHORT_KEY) short.push(`line ${index + 1}`)
      digests.push(sha256Hex(line))
    } else if (hex64.test(digest)) digests.push(digest.toLowerCase())
    else return Result.fail(`line ${index + 1} starts with "sha256:" but is not followed by 64 hexadecimal digits`)
  }
  return Result.succeed({ digests, short })
}

/** Comma-separated keys; surrounding space trimmed, empty entries ignored; the failure names the key by position. */
export const parseKeyList = (text: string): Result.Result<Keys, string> => {
  const keys = text
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "")
  const bad = keys.findIndex((key) => !visibleAscii.test(key))
  if (bad !== -1) return Result.fail(`key ${bad + 1} of ${keys.length} ${UNUSABLE}`)
  const short = keys.flatMap((key, index) => (key.length < SHORT_KEY ? [`key ${index + 1}`] : []))
  return Result.succeed({ digests: keys.map(sha256Hex), short })
}

const NONE: Keys = { digests: [], short: [] }

const readKeys = (name: string, read: () => Result.Result<Keys, string>) =>
  Effect.suspend(() =>
    Result.match(read(), {
      onSuccess: Effect.succeed,
      onFailure: (why) => Effect.fail(new InvalidConfig({ message: `${name} ${why}` }))
    })
  )

const readKeysFile = (path: string): Effect.Effect<Keys, InvalidConfig> =>
  readKeys("API_KEYS_FILE", () => {
    const file = readRegularFile(path)
    if (typeof file === "string") return Result.fail(file)
    return Result.mapError(parseKeysFile(file.text), (why) => `${path}: ${why}`)
  })

/** One log line for every short key, never the key: where each is. */
const warnShort = (short: ReadonlyArray<string>) =>
  short.length === 0
    ? Effect.void
    : Effect.logWarning(
        `${short.length} API key(s) shorter than ${SHORT_KEY} characters (${short.join(", ")}): digests of short ` +
          `keys in Redis key names and log ids can be reversed by guessing; use ${SHORT_KEY} or more random characters`
      )

/**
 * A known key's names, both from its digest, never its text. `id` is for people (logs): `key_` and 8 hex digits,
 * short, and two keys may share it. `bucket`, the first 32 hex digits (128 bits), names its rate-limit bucket, in
 * memory and in Redis: distinct for distinct keys in practice, so keys never share a limit.
 */
export interface Caller {
  readonly id: string
  readonly bucket: string
}

const callersOf = (digests: Iterable<string>) => {
  const callers = new Map<string, Caller>()
  for (const digest of digests) callers.set(digest, { id: `key_${digest.slice(0, 8)}`, bucket: digest.slice(0, 32) })
  return callers
}

/** Whether API_KEYS_FILE reads as a file without a key (so, with no API_KEYS, a key is generated). */
export const holdsNoKey = (path: string): boolean => {
  const file = readRegularFile(path)
  if (typeof file === "string") return false // unreadable: the workers report it
  const read = parseKeysFile(file.text)
  return Result.isSuccess(read) && read.success.digests.length === 0
}

/** A key for this run only; crypto random because it guards the service (Effect's Random is not). */
export const generateKey = () => `tk_${randomBytes(32).toString("base64url")}`

/** The one place a key's text is written: stderr, once, at start. */
export const announcement = (key: string) =>
  `No API key configured: set API_KEYS (comma-separated) or API_KEYS_FILE (one key a line).\n` +
  `Serving with this key, generated for this run only: ${key}`

export class ApiKeyStore extends Context.Service<
  ApiKeyStore,
  {
    /** The caller for a known key, else undefined. */
    readonly authenticate: (key: string) => Caller | undefined
    /** Prints the generated key, if there is one, once. */
    readonly announce: Effect.Effect<void>
    /** Reads API_KEYS_FILE again and serves its keys with API_KEYS'; a file that fails keeps the old keys. Logs. */
    readonly reload: Effect.Effect<void>
  }
>()("app/ApiKeyStore") {
  static readonly layer: Layer.Layer<ApiKeyStore, InvalidConfig, AppConfig> = Layer.effect(
    ApiKeyStore,
    Effect.gen(function* () {
      const { apiKeys, apiKeysFile, generatedKey, workerIndex } = yield* AppConfig
      const listed =
        apiKeys === undefined ? NONE : yield* readKeys("API_KEYS", () => parseKeyList(Redacted.value(apiKeys)))
      const fromFile = apiKeysFile === undefined ? NONE : yield* readKeysFile(apiKeysFile)
      // One warning per deployment: a lone process, or the first worker.
      if (workerIndex === undefined || workerIndex === "1") yield* warnShort([...listed.short, ...fromFile.short])
      const digests = new Set([...listed.digests, ...fromFile.digests])
      // A worker is given its primary's key, which the primary announces.
      const generated =
        digests.size === 0 ? (generatedKey === undefined ? generateKey() : Redacted.value(generatedKey)) : undefined
      if (generated !== undefined) digests.add(sha256Hex(generated))
      let callers = callersOf(digests)
      let announced = generatedKey !== undefined

      // One reload at a time: a later signal's reads never land before an earlier one's.
      const oneAtATime = (yield* Semaphore.make(1)).withPermits(1)
      const reload = Effect.gen(function* () {
        if (apiKeysFile === undefined) return yield* Effect.logWarning("SIGHUP ignored: no API_KEYS_FILE to re-read")
        const text = yield* Effect.mapError(
          readFinishedFile(apiKeysFile),
          (why) => new InvalidConfig({ message: `API_KEYS_FILE ${why}` })
        )
        const read = yield* readKeys("API_KEYS_FILE", () =>
          Result.mapError(parseKeysFile(text), (why) => `${apiKeysFile}: ${why}`)
        )
        if (read.digests.length === 0) {
          return yield* Effect.logWarning(`API keys not reloaded, the previous ones stay: ${apiKeysFile} holds no key`)
        }
        const next = callersOf([...listed.digests, ...read.digests])
        const added = [...next.keys()].filter((digest) => !callers.has(digest)).length
        const removed = [...callers.keys()].filter((digest) => !next.has(digest)).length
        callers = next
        yield* Effect.logInfo("API keys reloaded").pipe(Effect.annotateLogs({ keys: next.size, added, removed }))
        yield* warnShort(read.short)
      }).pipe(
        Effect.catch((error) => Effect.logError(`API keys not reloaded, the previous ones stay: ${error.message}`)),
        oneAtATime
      )

      return ApiKeyStore.of({
        // Plain and synchronous, no Effect and no span: it runs on every request.
        authenticate: (key) => (key === "" ? undefined : callers.get(sha256Hex(key))),
        // Called once the server listens, so a start that fails prints no key that never served.
        announce: Effect.suspend(() => {
          if (generated === undefined || announced) return Effect.void
          announced = true
          return Console.error(announcement(generated))
        }),
        reload
      })
    })
  )

  /** A store holding exactly these keys (plaintext), no configuration read. */
  static readonly fromKeys = (keys: ReadonlyArray<string>): Layer.Layer<ApiKeyStore> =>
    Layer.sync(ApiKeyStore, () => {
      const callers = callersOf(keys.map(sha256Hex))
      return ApiKeyStore.of({
        authenticate: (key) => (key === "" ? undefined : callers.get(sha256Hex(key))),
        announce: Effect.void,
        reload: Effect.void
      })
    })
}
