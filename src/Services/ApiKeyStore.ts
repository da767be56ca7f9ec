/**
 * API keys from API_KEYS (comma-separated) and API_KEYS_FILE (one a line, `#` comments, `sha256:<hex>` digests).
 * Only SHA-256 digests are kept; a presented key is looked up by its digest, and the caller is named
 * `key_<first 8 hex of the digest>`, so no key's text ever reaches a log, an error or a metric.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { Console, Context, Effect, Layer, Result } from "effect"
import { AppConfig, InvalidConfig } from "../Config.ts"

/** Hex SHA-256 of the UTF-8 text; `Bun.SHA256.hash`, the fastest on Bun, as it runs on every authenticated request. */
export const sha256Hex = (text: string): string => Bun.SHA256.hash(text, "hex")

const digestLine = /^sha256:(.*)$/i
const hex64 = /^[0-9a-f]{64}$/i

/**
 * The digests of the keys in an API_KEYS_FILE's text, or the sentence saying which line is wrong. Lines are trimmed;
 * blank lines and lines starting with `#` are skipped; `sha256:<64 hex>` gives a key by its digest (any case).
 */
export const parseKeysFile = (text: string): Result.Result<ReadonlyArray<string>, string> => {
  const digests: Array<string> = []
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim()
    if (line === "" || line.startsWith("#")) continue
    const digest = digestLine.exec(line)?.[1]?.trim()
    if (digest === undefined) digests.push(sha256Hex(line))
    else if (hex64.test(digest)) digests.push(digest.toLowerCase())
    else return Result.fail(`line ${index + 1} starts with "sha256:" but is not followed by 64 hexadecimal digits`)
  }
  return Result.succeed(digests)
}

/** Comma-separated keys; surrounding space trimmed, empty entries ignored. */
export const parseKeyList = (text: string): ReadonlyArray<string> =>
  text
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "")

const fileError = (message: string) => new InvalidConfig({ message: `API_KEYS_FILE ${message}` })

const readKeysFile = (path: string): Effect.Effect<ReadonlyArray<string>, InvalidConfig> =>
  Effect.try({
    // Read once at start, synchronously: works the same from source and in a `bun build --compile` binary.
    try: () => readFileSync(path, "utf8"),
    catch: (error) => fileError(`${path} could not be read (${(error as { code?: string }).code ?? "I/O error"})`)
  }).pipe(
    Effect.flatMap((text) =>
      Result.match(parseKeysFile(text), {
        onSuccess: Effect.succeed,
        onFailure: (why) => Effect.fail(fileError(`${path}: ${why}`))
      })
    )
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

const lookup = (digests: Iterable<string>) => {
  const callers = new Map<string, Caller>()
  for (const digest of digests) callers.set(digest, { id: `key_${digest.slice(0, 8)}`, bucket: digest.slice(0, 32) })
  return {
    keyCount: callers.size,
    // Plain and synchronous, no Effect and no span: it runs on every request.
    authenticate: (key: string): Caller | undefined => (key === "" ? undefined : callers.get(sha256Hex(key)))
  }
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
    readonly keyCount: number
    /** The caller for a known key, else undefined. */
    readonly authenticate: (key: string) => Caller | undefined
    /** Prints the generated key, if there is one, once. */
    readonly announce: Effect.Effect<void>
  }
>()("app/ApiKeyStore") {
  static readonly layer: Layer.Layer<ApiKeyStore, InvalidConfig, AppConfig> = Layer.effect(
    ApiKeyStore,
    Effect.gen(function* () {
      const settings = yield* AppConfig
      const listed = settings.apiKeys === undefined ? [] : parseKeyList(settings.apiKeys)
      const fromFile = settings.apiKeysFile === undefined ? [] : yield* readKeysFile(settings.apiKeysFile)
      const digests = new Set([...listed.map(sha256Hex), ...fromFile])
      const generated = digests.size === 0 ? generateKey() : undefined
      if (generated !== undefined) digests.add(sha256Hex(generated))
      let announced = false
      return ApiKeyStore.of({
        ...lookup(digests),
        // Called once the server listens, so a start that fails prints no key that never served.
        announce: Effect.suspend(() => {
          if (generated === undefined || announced) return Effect.void
          announced = true
          return Console.error(announcement(generated))
        })
      })
    })
  )

  /** A store holding exactly these keys (plaintext), no configuration read. */
  static readonly fromKeys = (keys: ReadonlyArray<string>): Layer.Layer<ApiKeyStore> =>
    Layer.sync(ApiKeyStore, () => ApiKeyStore.of({ ...lookup(keys.map(sha256Hex)), announce: Effect.void }))
}
