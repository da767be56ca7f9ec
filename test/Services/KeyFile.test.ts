/** Issue 38: a keys-file line may give its key a limit and a name after it; every line of before reads as before. */
import { describe, expect, test } from "bun:test"
import { createHash } from "node:crypto"
import { Result } from "effect"
import { parseKeysFile } from "../../src/Services/KeyFile.ts"

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")
const KEY = "a-key-of-twenty-chars"

describe("settings after the key", () => {
  test("limit= and name=, in any order, after spaces or tabs; on digest lines too, `sha256: ` included", () => {
    const digest = sha256("hidden-key")
    const text = `${KEY}\tlimit=500   name=acme\nSHA256: ${digest.toUpperCase()} name=team.b-2\nplain-key-no-settings\n`
    const read = parseKeysFile(text)
    expect(read).toEqual(
      Result.succeed({
        digests: [sha256(KEY), digest, sha256("plain-key-no-settings")],
        short: [],
        own: new Map([
          [sha256(KEY), { limit: 500, name: "acme" }],
          [digest, { name: "team.b-2" }]
        ])
      })
    )
  })

  test("bad settings name their line and never quote it", () => {
    for (const [line, why] of [
      [`${KEY} limit=`, "line 1 has a bad limit"],
      [`${KEY} limit=1.5`, "line 1 has a bad limit"],
      [`${KEY} limit=-1`, "line 1 has a bad limit"],
      [`${KEY} name=${"n".repeat(65)}`, "line 1 has a bad name"],
      [`${KEY} name=-dash-first`, "line 1 has a bad name"],
      [`${KEY} name=acme name=other`, "line 1 gives name twice"],
      [`${KEY} Limit=5`, "line 1 holds a space or a character outside visible ASCII"]
    ] as const) {
      const read = parseKeysFile(line)
      expect(Result.isFailure(read) && read.failure).toStartWith(why)
      expect(Result.isFailure(read) && read.failure).not.toContain(KEY)
    }
  })
})

describe("a line without a key", () => {
  test("a first word that is a setting (a template's empty $KEY) is refused, naming its line, never quoting it", () => {
    for (const [text, line] of [
      [" limit=500 name=acme\n", 1],
      ["# customers\nname=acme\n", 2],
      [`${KEY}\n\tLIMIT=500\n`, 2],
      ["Name=acme limit=5 a-key-of-twenty-chars\n", 1],
      ["limit=\n", 1]
    ] as const) {
      const read = parseKeysFile(text)
      expect(Result.isFailure(read) && read.failure).toStartWith(
        `line ${line} starts with a setting (limit= or name=) where its key should be`
      )
      for (const part of ["500", "acme", KEY]) expect(Result.isFailure(read) && read.failure).not.toContain(part)
    }
  })

  test("a key that merely holds `limit=` further in is still a key", () => {
    expect(Result.isSuccess(parseKeysFile("key-with-limit=500-inside\n"))).toBe(true)
  })
})

describe("a key of API_KEYS in the file", () => {
  const listed = [sha256("env-key-one-0000000000"), sha256(KEY)]

  test("is refused, naming the file's line and the key's place in API_KEYS, never the key", () => {
    for (const text of [`other-key-00000000000\n${KEY} limit=3\n`, `other-key-00000000000\nsha256:${sha256(KEY)}\n`]) {
      const read = parseKeysFile(text, listed)
      expect(Result.isFailure(read) && read.failure).toStartWith(
        "line 2 is the key of API_KEYS key 2: a key is given in API_KEYS or in API_KEYS_FILE, not both"
      )
      expect(Result.isFailure(read) && read.failure).not.toContain(KEY)
    }
  })

  test("other keys are read as before", () => {
    expect(Result.isSuccess(parseKeysFile("other-key-00000000000\n", listed))).toBe(true)
  })
})
