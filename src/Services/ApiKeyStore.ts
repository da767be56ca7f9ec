/** API keys from API_KEYS and API_KEYS_FILE, kept as SHA-256 digests only: no key's text reaches a log or a metric. */
import { randomBytes } from "node:crypto"
import { Console, Context, Effect, Layer, Redacted, Result, Semaphore } from "effect"
import { AppConfig, InvalidConfig } from "../Config.ts"
import type { Caller } from "./Caller.ts"
import { readFinishedFile, readRegularFile, type Snapshot } from "./FinishedFile.ts"
import { type Keys, type Own, parseKeyList, parseKeysFile, sha256Hex, SHORT_KEY } from "./KeyFile.ts"

const NONE: Keys = { digests: [], short: [] }

/** The keys in a keys file's text, none of them one of `listed` (API_KEYS' digests); or why not, naming the file. */
const keysIn = (path: string, text: string, listed: ReadonlyArray<string>) =>
  Result.mapError(parseKeysFile(text, listed), (why) => `${path}: ${why}`)

/** A keys file read at start: its keys, and its stamp for the first SIGHUP to compare with. */
interface FileKeys {
  readonly keys: Keys
  readonly stamp: string
}

/** Which file was read, when modified, what it held (a write in the clock tick of the last read keeps its time). */
const stampOf = (file: Snapshot) => `${file.inode} ${file.mtimeMs} ${sha256Hex(file.text)}`

const readKeysFile = (path: string, listed: ReadonlyArray<string> = []): Result.Result<FileKeys, string> => {
  const file = readRegularFile(path)
  if (typeof file === "string") return Result.fail(file)
  return Result.map(keysIn(path, file.text, listed), (keys) => ({ keys, stamp: stampOf(file) }))
}

/** Ends a reload's log line when its file is the one read last, as a single-file bind mount shows after a rename. */
const UNCHANGED =
  "; the file is unchanged since the last read (same inode and modification time): if it is bind-mounted as a " +
  "single file, mount its directory instead"

const refuseAs = <A>(name: string, read: Result.Result<A, string>) =>
  Effect.fromResult(Result.mapError(read, (why) => new InvalidConfig({ message: `${name} ${why}` })))

/** One log line for every short key, saying where each is. */
const warnShort = (short: ReadonlyArray<string>) =>
  short.length === 0
    ? Effect.void
    : Effect.logWarning(
        `${short.length} API key(s) shorter than ${SHORT_KEY} characters (${short.join(", ")}): digests of short ` +
          `keys in Redis key names and log ids can be reversed by guessing; use ${SHORT_KEY} or more random characters`
      )

const callersOf = (digests: Iterable<string>, own?: ReadonlyMap<string, Own>) => {
  const callers = new Map<string, Caller>()
  for (const digest of digests) {
    const { limit, name = `key_${digest.slice(0, 8)}` } = own?.get(digest) ?? {}
    // Named with its limit, a key's bucket starts afresh when a reload changes it: never more tokens than the limit.
    const bucket = limit === undefined ? digest.slice(0, 32) : `${digest.slice(0, 32)}:${limit}`
    callers.set(digest, { id: name, bucket, limit })
  }
  return callers
}

/** Whether API_KEYS_FILE reads as a file without a key (so, with no API_KEYS, a key is generated). */
export const holdsNoKey = (path: string): boolean => {
  const read = readKeysFile(path) // unreadable or wrong: not "no key", the workers report it
  return Result.isSuccess(read) && read.success.keys.digests.length === 0
}

/** A key for this run only; crypto random because it guards the service (Effect's Random is not). */
export const generateKey = () => `tk_${randomBytes(32).toString("base64url")}`

/** The one place a key's text is written: stderr, once, at start. */
export const announcement = (key: string) =>
  `No API key configured: set API_KEYS (comma-separated) or API_KEYS_FILE (one key a line).\n` +
  `Serving with this key, generated for this run only: ${key}`

export class ApiKeyStore extends Context.Service<ApiKeyStore>()("app/ApiKeyStore", {
  make: Effect.gen(function* () {
    const { apiKeys, apiKeysFile, generatedKey, workerIndex } = yield* AppConfig
    const listed = apiKeys === undefined ? NONE : yield* refuseAs("API_KEYS", parseKeyList(Redacted.value(apiKeys)))
    const fromFile =
      apiKeysFile === undefined
        ? undefined
        : yield* refuseAs("API_KEYS_FILE", readKeysFile(apiKeysFile, listed.digests))
    const filed = fromFile?.keys ?? NONE
    // One warning per deployment: a lone process, or the first worker.
    if (workerIndex === undefined || workerIndex === "1") yield* warnShort([...listed.short, ...filed.short])
    const digests = new Set([...listed.digests, ...filed.digests])
    // A worker is given its primary's key, which the primary announces.
    const generated =
      digests.size === 0 ? (generatedKey === undefined ? generateKey() : Redacted.value(generatedKey)) : undefined
    if (generated !== undefined) digests.add(sha256Hex(generated))
    let callers = callersOf(digests, filed.own)
    let lastStamp = fromFile?.stamp
    /** Prints the generated key, if there is one, once. */
    const announce =
      generated === undefined || generatedKey !== undefined
        ? Effect.void
        : yield* Effect.cached(Console.error(announcement(generated)))

    /** Serves the keys of a file read on SIGHUP, with API_KEYS'; `note` ends the log line. */
    const take = Effect.fnUntraced(function* (path: string, text: string, note: string) {
      const read = yield* Effect.fromResult(keysIn(path, text, listed.digests)).pipe(
        Effect.mapError((why) => `${why}${note}`)
      )
      if (read.digests.length === 0) {
        return yield* Effect.logWarning(`API keys not reloaded, the previous ones stay: ${path} holds no key${note}`)
      }
      const next = callersOf([...listed.digests, ...read.digests], read.own)
      const added = [...next.keys()].filter((digest) => !callers.has(digest)).length
      const removed = [...callers.keys()].filter((digest) => !next.has(digest)).length
      callers = next
      yield* Effect.logInfo(`API keys reloaded${note}`).pipe(Effect.annotateLogs({ keys: next.size, added, removed }))
      yield* warnShort(read.short)
    })

    // One reload at a time: a later signal's reads never land before an earlier one's.
    const oneAtATime = (yield* Semaphore.make(1)).withPermits(1)
    /** Reads API_KEYS_FILE again and serves its keys with API_KEYS'; a file that fails keeps the old keys. Logs. */
    const reload = Effect.gen(function* () {
      if (apiKeysFile === undefined) return yield* Effect.logWarning("SIGHUP ignored: no API_KEYS_FILE to re-read")
      const file = yield* readFinishedFile(apiKeysFile)
      const stamp = stampOf(file)
      const note = stamp === lastStamp ? UNCHANGED : ""
      lastStamp = stamp
      yield* take(apiKeysFile, file.text, note)
    }).pipe(
      Effect.catch((why) => Effect.logError(`API keys not reloaded, the previous ones stay: API_KEYS_FILE ${why}`)),
      oneAtATime
    )

    return {
      // Plain and synchronous, no Effect and no span: it runs on every request.
      authenticate: (key: string): Caller | undefined => (key === "" ? undefined : callers.get(sha256Hex(key))),
      // Called once the server listens, so a start that fails prints no key that never served.
      announce,
      reload
    }
  })
}) {
  static readonly layer: Layer.Layer<ApiKeyStore, InvalidConfig, AppConfig> = Layer.effect(
    ApiKeyStore,
    ApiKeyStore.make
  )

  /** A store holding exactly these keys (plaintext), no configuration read. */
  static readonly fromKeys = (keys: ReadonlyArray<string>): Layer.Layer<ApiKeyStore> => {
    const callers = callersOf(keys.map(sha256Hex))
    return Layer.succeed(ApiKeyStore, {
      authenticate: (key) => (key === "" ? undefined : callers.get(sha256Hex(key))),
      announce: Effect.void,
      reload: Effect.void
    })
  }
}
