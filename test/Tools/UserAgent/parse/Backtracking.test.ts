import { describe, expect, test } from "bun:test"
import { BOUND_MS, checkPatternCosts, cpuMs } from "../../../../scripts/devicePatternCost.ts"
import { parseUserAgent } from "../../../../src/Tools/UserAgent/parse/Normalise.ts"

// what a caller may send: 2048 characters (the contract's limit), here a text repeated
const filled = (text: string, length = 2048): string => text.repeat(Math.ceil(length / text.length)).slice(0, length)
const phone = "Mozilla/5.0 (Linux; Android 10; "
const reduced =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 "

// the worst strings found by timing every pattern of the device database, the library and the rules on strings of
// their own texts (scripts/README.md): each made a parse backtrack over the whole string, for 30 to 130 ms of CPU
const hostile: ReadonlyArray<readonly [string, string, Record<string, string>?]> = [
  ["a brand's text repeated after a handset's word (the issue's)", `WAP ${filled("BOWAY ", 2044)}`],
  ["the same in a phone's string, where Boway's models run", `${phone}${filled("BOWAY ", 2048 - phone.length)}`],
  ["a repeated group before a run ((?:DATANG[ _-])+([^;/]+) Build)", `WAP ${filled("DATANG ", 2044)}`],
  ["ua-parser-js's Archos pattern on a run of digits", `archos ${filled("1", 2041)}`],
  ["the same in a phone's string", `${phone}archos ${filled("1", 2041 - phone.length)}`],
  [
    "a hinted model of the contract's length, its brand's text after",
    reduced + filled("DATANG ", 2048 - reduced.length),
    { "sec-ch-ua-model": filled("DATANG ", 64), "sec-ch-ua-mobile": "?1" }
  ]
]

describe("no string the contract accepts holds a parse", () => {
  // the first parse that reads the device database loads it
  parseUserAgent("Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 Chrome/120.0.0.0 Mobile Safari/537.36")

  // in CPU time, which other processes do not inflate: 2 ms at most (scripts/README.md), so 20 ms leaves a slow
  // machine room
  for (const [name, ua, hints] of hostile)
    test(`${name}: parsed in well under 20 ms`, () => {
      // the second of two parses: the first also compiles the patterns it is the first to need
      expect(
        Math.min(
          cpuMs(() => parseUserAgent(ua, hints)),
          cpuMs(() => parseUserAgent(ua, hints))
        )
      ).toBeLessThan(20)
    })
})

describe("the generation-time check of the device patterns (scripts/devicePatternCost.ts)", () => {
  test("fails on a pattern that backtracks over what the service lets it read, naming it", () => {
    const source = "BOWAY[ _-]([^/;]+)([^/;]+)[ _]Build"
    expect(() => checkPatternCosts([{ label: "Boway, twice greedy", source }])).toThrow("Boway, twice greedy")
  })

  test("passes Boway's own pattern, whose backtracking the window keeps small", () => {
    const [cost] = checkPatternCosts([{ label: "Boway", source: "BOWAY[ _-]([^/;]+)[ _]Build" }])
    expect(cost!.ms).toBeLessThan(BOUND_MS)
  })
})
