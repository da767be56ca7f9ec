import { afterEach, beforeEach, describe, expect, spyOn, test, type Mock } from "bun:test"
import { createHash } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Cause, Effect, Exit, Layer, Option, Result } from "effect"
import { AppConfig, InvalidConfig } from "../../src/Config.ts"
import { ApiKeyStore, parseKeyList, parseKeysFile } from "../../src/Services/ApiKeyStore.ts"

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

let dir = ""
let stderr: Mock<typeof console.error>
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keys-"))
  stderr = spyOn(console, "error").mockImplementation(() => {})
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
  stderr.mockRestore()
})

const file = (text: string) => {
  const path = join(dir, "keys.txt")
  writeFileSync(path, text)
  return path
}

/** The store as the service builds it from these environment variables. */
const store = (env: Record<string, string>) => ApiKeyStore.layer.pipe(Layer.provide(AppConfig.fromEnv(env)))

/** Builds the store from `env` and authenticates each key. */
const authenticate = (env: Record<string, string>, keys: ReadonlyArray<string>) =>
  Effect.runPromiseExit(
    Effect.map(ApiKeyStore, (keyStore) => keys.map(keyStore.authenticate)).pipe(Effect.provide(store(env)))
  )

const ids = async (env: Record<string, string>, keys: ReadonlyArray<string>) => {
  const exit = await authenticate(env, keys)
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  return exit.value.map((caller) => caller?.id ?? null)
}

describe("parsing", () => {
  test("API_KEYS: comma-separated, trimmed, empties ignored", () => {
    expect(parseKeyList(" a, b ,,c ,")).toEqual(["a", "b", "c"])
  })

  test("API_KEYS_FILE: comments, blank lines, CRLF, digests in any case", () => {
    const digest = sha256("hidden")
    const text = `\uFEFF# team keys\r\n\r\n  plain-one  \r\nclé-ü\n#not-a-key\nsha256:${digest.toUpperCase()}\nSHA256: ${digest}\n`
    expect(parseKeysFile(text)).toEqual(Result.succeed([sha256("plain-one"), sha256("clé-ü"), digest, digest]))
  })

  test("a malformed sha256 line names its line", () => {
    expect(parseKeysFile(`a\nsha256:${"0".repeat(63)}`)).toEqual(
      Result.fail('line 2 starts with "sha256:" but is not followed by 64 hexadecimal digits')
    )
    expect(Result.isFailure(parseKeysFile(`sha256:${"g".repeat(64)}`))).toBe(true)
  })
})

describe("authenticate", () => {
  test("knows API_KEYS keys, case-sensitively; unknown and empty keys are undefined", async () => {
    const result = await ids({ API_KEYS: "alpha-key, beta-key" }, [
      "alpha-key",
      "beta-key",
      "ALPHA-KEY",
      " alpha-key",
      ""
    ])
    expect(result).toEqual([
      `key_${sha256("alpha-key").slice(0, 8)}`,
      `key_${sha256("beta-key").slice(0, 8)}`,
      null,
      null,
      null
    ])
    expect(stderr).not.toHaveBeenCalled()
  })

  test("takes the union of API_KEYS and API_KEYS_FILE; a digest line admits its key, not the digest", async () => {
    const digest = sha256("only-the-digest-is-on-disk")
    const path = file(`# comment\nfrom-file\n\nsha256:${digest.toUpperCase()}\n`)
    const result = await ids({ API_KEYS: "from-env", API_KEYS_FILE: path }, [
      "from-env",
      "from-file",
      "only-the-digest-is-on-disk",
      digest,
      `sha256:${digest}`,
      "# comment"
    ])
    expect(result).toEqual([
      "key_" + sha256("from-env").slice(0, 8),
      "key_" + sha256("from-file").slice(0, 8),
      "key_" + digest.slice(0, 8),
      null,
      null,
      null
    ])
  })

  test("fromKeys serves exactly the given keys", async () => {
    const result = await Effect.runPromise(
      Effect.map(ApiKeyStore, (keyStore) => [keyStore.authenticate("k1"), keyStore.authenticate("k2")]).pipe(
        Effect.provide(ApiKeyStore.fromKeys(["k1"]))
      )
    )
    expect(result.map((caller) => caller ?? null)).toEqual([
      { id: `key_${sha256("k1").slice(0, 8)}`, bucket: sha256("k1").slice(0, 32) },
      null
    ])
  })
})

describe("no key configured", () => {
  const generated = () => {
    expect(stderr).toHaveBeenCalledTimes(1)
    const message = stderr.mock.calls[0]!.join(" ")
    expect(message).toContain("API_KEYS")
    expect(message).toContain("API_KEYS_FILE")
    return message.match(/tk_[A-Za-z0-9_-]{43}/)?.[0] ?? ""
  }

  test("a random key is printed once on stderr, when announced, and authenticates", async () => {
    const exit = await Effect.runPromiseExit(
      Effect.flatMap(ApiKeyStore, (keyStore) =>
        Effect.suspend(() => {
          expect(stderr).not.toHaveBeenCalled()
          return Effect.andThen(
            Effect.andThen(keyStore.announce, keyStore.announce),
            Effect.sync(() => keyStore.authenticate(generated()))
          )
        })
      ).pipe(Effect.provide(store({ API_KEYS: " , " })))
    )
    expect(Exit.isSuccess(exit) && exit.value !== undefined).toBe(true)
    expect(stderr).toHaveBeenCalledTimes(1)
  })

  test("an API_KEYS_FILE with no keys counts as none configured", async () => {
    expect(await ids({ API_KEYS_FILE: file("# nothing yet\n\n") }, ["anything"])).toEqual([null])
    const announced = await Effect.runPromise(
      Effect.flatMap(ApiKeyStore, (keyStore) => keyStore.announce).pipe(
        Effect.provide(store({ API_KEYS_FILE: file("# nothing yet\n") }))
      )
    )
    expect(announced).toBeUndefined()
    expect(generated()).not.toBe("")
  })
})

describe("a bad API_KEYS_FILE stops the start", () => {
  const failure = async (path: string) => {
    const exit = await authenticate({ API_KEYS: "ok", API_KEYS_FILE: path }, [])
    if (Exit.isSuccess(exit)) throw new Error("expected a failure")
    const error = Cause.findErrorOption(exit.cause)
    if (Option.isNone(error) || !(error.value instanceof InvalidConfig)) throw new Error(Cause.pretty(exit.cause))
    return error.value
  }

  test("an unreadable file", async () => {
    const error = await failure(join(dir, "missing.txt"))
    expect(error).toMatchObject({ _tag: "InvalidConfig" })
    expect(error.message).toBe(`API_KEYS_FILE ${join(dir, "missing.txt")} could not be read (ENOENT)`)
    expect((await failure(dir)).message).toContain("could not be read")
  })

  test("a malformed sha256 line", async () => {
    const path = file(`good\nsha256:abc\n`)
    const error = await failure(path)
    expect(error).toMatchObject({ _tag: "InvalidConfig" })
    expect(error.message).toBe(
      `API_KEYS_FILE ${path}: line 2 starts with "sha256:" but is not followed by 64 hexadecimal digits`
    )
    expect(stderr).not.toHaveBeenCalled()
  })
})
