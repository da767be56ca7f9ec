import { afterEach, beforeEach, describe, expect, spyOn, test, type Mock } from "bun:test"
import { createHash } from "node:crypto"
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as fc from "fast-check"
import { Cause, Effect, Exit, Layer, Logger, Option, References, Result } from "effect"
import { AppConfig, InvalidConfig } from "../../src/Config.ts"
import { ApiKeyStore } from "../../src/Services/ApiKeyStore.ts"
import { parseKeyList, parseKeysFile, SHORT_KEY } from "../../src/Services/KeyFile.ts"

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
    Effect.map(ApiKeyStore, (keyStore) => keys.map(keyStore.authenticate)).pipe(
      // its start-up warnings are the subject of tests below, not of these
      Effect.provide(store(env).pipe(Layer.provide(Logger.layer([]))))
    )
  )

const ids = async (env: Record<string, string>, keys: ReadonlyArray<string>) => {
  const exit = await authenticate(env, keys)
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  return exit.value.map((caller) => caller?.id ?? null)
}

describe("parsing", () => {
  test("API_KEYS: comma-separated, trimmed, empties ignored", () => {
    expect(parseKeyList(" a, b ,,c ,")).toEqual(
      Result.succeed({ digests: ["a", "b", "c"].map(sha256), short: ["key 1", "key 2", "key 3"] })
    )
  })

  test("API_KEYS_FILE: comments, blank lines, CRLF, digests in any case", () => {
    const digest = sha256("hidden")
    const long = "a-key-of-twenty-chars"
    const text = `\uFEFF# team keys\r\n\r\n  plain-one  \r\n${long}\n#not-a-key\nsha256:${digest.toUpperCase()}\nSHA256: ${digest}\n`
    expect(parseKeysFile(text)).toEqual(
      Result.succeed({ digests: [sha256("plain-one"), sha256(long), digest, digest], short: ["line 3"] })
    )
  })

  test("a malformed sha256 line names its line", () => {
    expect(parseKeysFile(`a\nsha256:${"0".repeat(63)}`)).toEqual(
      Result.fail('line 2 starts with "sha256:" but is not followed by 64 hexadecimal digits')
    )
    expect(Result.isFailure(parseKeysFile(`sha256:${"g".repeat(64)}`))).toBe(true)
  })

  test("a key no header can carry is refused, named by its position, never quoted", () => {
    expect(parseKeyList("good-key, кл4")).toEqual(
      Result.fail("key 2 of 2 holds a space or a character outside visible ASCII, so no request can ever carry it")
    )
    expect(parseKeyList("a b")).toMatchObject({ _tag: "Failure" })
    const noted = parseKeysFile("# keys\nfirst-key-is-fine\nsecond-key # the billing team\n")
    expect(noted).toEqual(
      Result.fail(
        "line 3 holds a space or a character outside visible ASCII, so no request can ever carry it " +
          "(a comment is a line of its own, starting with #)"
      )
    )
    expect(parseKeysFile("clé-ü")).toMatchObject({ _tag: "Failure" })
  })

  test("property: a key is accepted exactly when it is visible ASCII; the message never holds it", () => {
    const char = fc.oneof(
      fc.integer({ min: 0x21, max: 0x7e }),
      fc.integer({ min: 0, max: 0x20 }),
      fc.integer({ min: 0x7f, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff)
    )
    const key = fc.array(char, { minLength: 1, maxLength: 30 }).map((codes) => String.fromCodePoint(...codes))
    fc.assert(
      fc.property(key, (raw) => {
        const trimmed = raw.trim()
        fc.pre(trimmed !== "" && !trimmed.includes(",") && !trimmed.startsWith("#") && !/^sha256:/i.test(trimmed))
        const usable = /^[\x21-\x7e]+$/.test(trimmed)
        // In a file a line break separates keys, so a key holding one is two lines there: only the list judges it.
        const results = /[\r\n]/.test(trimmed) ? [parseKeyList(raw)] : [parseKeyList(raw), parseKeysFile(raw)]
        for (const result of results) {
          expect(Result.isSuccess(result)).toBe(usable)
          if (Result.isFailure(result)) expect(result.failure).not.toContain(trimmed)
          else expect(result.success.digests).toEqual([sha256(trimmed)])
        }
      })
    )
  })

  test(`keys shorter than ${SHORT_KEY} characters are listed by position`, () => {
    const keys = ["k".repeat(SHORT_KEY - 1), "k".repeat(SHORT_KEY), "x"]
    expect(Result.map(parseKeyList(keys.join(",")), (read) => read.short)).toEqual(Result.succeed(["key 1", "key 3"]))
    expect(Result.map(parseKeysFile(keys.join("\n")), (read) => read.short)).toEqual(
      Result.succeed(["line 1", "line 3"])
    )
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

  test("a key of API_KEYS on a line of the file: which limit it would get is ambiguous", async () => {
    const path = file(`from-file-key-000000000\nok limit=3\n`)
    const error = await failure(path)
    expect(error.message).toStartWith(`API_KEYS_FILE ${path}: line 2 is the key of API_KEYS key 1: a key is given in`)
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

/** The messages logged while `effect` runs, with their level. */
const logged = async <A, E>(effect: Effect.Effect<A, E>) => {
  const lines: Array<string> = []
  const capture = Logger.make(({ logLevel, message, fiber }) => {
    const annotations = JSON.stringify(fiber.getRef(References.CurrentLogAnnotations))
    lines.push(`${logLevel} ${([] as Array<unknown>).concat(message).join(" ")} ${annotations}`)
  })
  const exit = await Effect.runPromiseExit(effect.pipe(Effect.provide(Logger.layer([capture]))))
  return { exit, lines }
}

describe("start-up warnings", () => {
  const built = Effect.map(ApiKeyStore, () => undefined)
  test("one warning names where the short keys are, never a key", async () => {
    const path = file("a-long-enough-key-for-sure\nshort-in-file\n")
    const { lines } = await logged(Effect.provide(built, store({ API_KEYS: "tiny,x", API_KEYS_FILE: path })))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toStartWith("Warn 3 API key(s) shorter than 20 characters (key 1, key 2, line 2)")
    for (const key of ["tiny", "short-in-file"]) expect(lines[0]).not.toContain(key)
  })

  test("long keys: no warning; in a second worker: none either (the first one warns)", async () => {
    expect((await logged(Effect.provide(built, store({ API_KEYS: "k".repeat(20) })))).lines).toEqual([])
    const worker = store({ API_KEYS: "tiny", TOOLS_API_WORKER: "2" })
    expect((await logged(Effect.provide(built, worker))).lines).toEqual([])
  })
})

describe("reload (SIGHUP)", () => {
  const OLD = "old-key-from-the-file-1"
  const NEW = "new-key-from-the-file-2"
  const ENV = "env-key-that-always-stays"

  /** Builds the store, applies `change` to the file, reloads; which keys authenticate after, and the log. */
  const reloadAfter = (change: (path: string) => void, env: Record<string, string> = {}) => {
    const path = file(`${OLD}\n`)
    return logged(
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        const before = [OLD, NEW, ENV].map((key) => keys.authenticate(key) !== undefined)
        change(path)
        yield* keys.reload
        return { before, after: [OLD, NEW, ENV].map((key) => keys.authenticate(key) !== undefined) }
      }).pipe(Effect.provide(store({ API_KEYS: ENV, API_KEYS_FILE: path, ...env })))
    )
  }
  const value = <A>(exit: Exit.Exit<A, unknown>) => {
    if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
    return exit.value
  }

  test("added keys work, removed keys do not, API_KEYS' stay; logged with counts", async () => {
    const { exit, lines } = await reloadAfter((path) => writeFileSync(path, `# rotated\n${NEW}\n`))
    expect(value(exit)).toEqual({ before: [true, false, true], after: [false, true, true] })
    expect(lines).toEqual(['Info API keys reloaded {"keys":2,"added":1,"removed":1}'])
  })

  for (const [name, change, why] of [
    ["missing", (path: string) => rmSync(path), "could not be read (ENOENT)"],
    ["empty", (path: string) => writeFileSync(path, "# nothing\n"), "holds no key"],
    ["malformed", (path: string) => writeFileSync(path, `${NEW}\nsha256:abc\n`), "line 2 starts with"],
    ["holding a key with a note", (path: string) => writeFileSync(path, `${NEW} # note\n`), "line 1 holds a space"]
  ] as const) {
    test(`a file ${name}: the previous keys stay, and the log says why`, async () => {
      const { exit, lines } = await reloadAfter(change)
      expect(value(exit)).toEqual({ before: [true, false, true], after: [true, false, true] })
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain("API keys not reloaded, the previous ones stay")
      expect(lines[0]).toContain(why)
      expect(lines[0]).not.toContain(NEW)
    })
  }

  test("a file that gains a key of API_KEYS: refused, the previous keys stay, the log names both places", async () => {
    const { exit, lines } = await reloadAfter((path) => writeFileSync(path, `${NEW}\n${ENV} limit=3\n`))
    expect(value(exit)).toEqual({ before: [true, false, true], after: [true, false, true] })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("API keys not reloaded, the previous ones stay")
    expect(lines[0]).toContain("line 2 is the key of API_KEYS key 1")
    for (const key of [NEW, ENV]) expect(lines[0]).not.toContain(key)
  })

  test("a file read as it was last (a single-file bind mount after a rename) says so", async () => {
    const { exit, lines } = await reloadAfter(() => {})
    expect(value(exit)).toEqual({ before: [true, false, true], after: [true, false, true] })
    expect(lines).toEqual([
      "Info API keys reloaded; the file is unchanged since the last read (same inode and modification time): if it " +
        'is bind-mounted as a single file, mount its directory instead {"keys":2,"added":0,"removed":0}'
    ])
  })

  test("the same text renamed over the file is another file: no such note", async () => {
    const { lines } = await reloadAfter((path) => {
      writeFileSync(`${path}.new`, `${OLD}\n`)
      renameSync(`${path}.new`, path)
    })
    expect(lines).toEqual(['Info API keys reloaded {"keys":2,"added":0,"removed":0}'])
  })

  test("a bad file read again unchanged: the refusal says it is unchanged", async () => {
    const path = file(`${OLD}\n`)
    const { lines } = await logged(
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        writeFileSync(path, `${NEW} # note\n`)
        yield* keys.reload
        yield* keys.reload
      }).pipe(Effect.provide(store({ API_KEYS_FILE: path })))
    )
    expect(lines).toHaveLength(2)
    expect(lines[0]).not.toContain("unchanged")
    expect(lines[1]).toContain("line 1 holds a space")
    expect(lines[1]).toContain("; the file is unchanged since the last read")
  })

  test("a reloaded file with short keys warns about them", async () => {
    const { lines } = await reloadAfter((path) => writeFileSync(path, `${NEW}\nshorty\n`))
    expect(lines[1]).toStartWith("Warn 1 API key(s) shorter than 20 characters (line 2)")
  })

  test("without a keys file, SIGHUP is logged and ignored", async () => {
    const { exit, lines } = await logged(
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        yield* keys.reload
        return keys.authenticate(ENV) !== undefined
      }).pipe(Effect.provide(store({ API_KEYS: ENV })))
    )
    expect(value(exit)).toBe(true)
    expect(lines).toEqual(["Warn SIGHUP ignored: no API_KEYS_FILE to re-read {}"])
  })
})
