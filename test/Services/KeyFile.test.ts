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
