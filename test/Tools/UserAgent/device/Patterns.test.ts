import { describe, expect, test } from "bun:test"
import { recentPatterns } from "../../../../src/Tools/UserAgent/device/Patterns.ts"
import { fileTexts } from "../../../../scripts/deviceData/PatternFiling.ts"
import { makePatternIndex } from "../../../../src/Tools/UserAgent/device/PatternIndex.ts"
import { requiredTexts } from "../../../../scripts/deviceData/PatternTexts.ts"

describe("the device patterns' index", () => {
  test("the first pattern in list order wins, even where a later one's text comes first in the string", () => {
    const patterns = ["Galaxy (S\\d+)", "SM-G\\d{3}", "Android"]
    const index = makePatternIndex(patterns, (s) => s, fileTexts(patterns))
    const compile = (s: string) => new RegExp(s, "i")
    const ua = "Mozilla/5.0 (Linux; Android 9; SM-G960F Galaxy S9)"
    expect(index.first(ua, ua.toLowerCase(), compile)?.entry).toBe("Galaxy (S\\d+)")
    expect(index.first(ua, ua.toLowerCase(), compile)?.match[1]).toBe("S9")
    expect(index.first("Android", "android", compile)?.entry).toBe("Android")
    expect(index.first("iPhone", "iphone", compile)).toBeUndefined()
  })

  test("the service keeps the most recently used compiled patterns and compiles the others again", () => {
    const compile = recentPatterns(2)
    const [samsung, pixel] = [compile("SM-A536B"), compile("Pixel 7")]
    expect(compile("SM-A536B")).toBe(samsung)
    compile("XQ-CT54") // the least recently used, Pixel 7's, goes
    expect(compile("SM-A536B")).toBe(samsung)
    const again = compile("Pixel 7")
    expect(again).not.toBe(pixel)
    expect(again.test("Mozilla/5.0 (Linux; Android 14; Pixel 7)")).toBe(true)
  })

  test("the texts read from a pattern are ones every match contains", () => {
    expect(requiredTexts("SM-[AT]\\d{3}")).toEqual(expect.arrayContaining(["sm-a", "sm-t"]))
    expect(requiredTexts("(?:SAMSUNG-)?SM-A536(?:[);/ ]|$)")).toContain("sm-a536)")
    // each of these strings matches its pattern, so it must contain one of the texts read from it
    const matches: Array<[string, string]> = [
      ["ab(?:cd)*ef", "xx abcdcdef"],
      ["ab(?:c)+d", "abccd"],
      ["x[12]{2,3}y", "x121y"],
      ["Lenovo ?(?:TAB){0,2}X", "lenovo tabtabx"],
      ["(?<!AN)DROID ?(?:Build|[a-z0-9]+)", "droid2"],
      ["Nokia[ _]?([0-9]{4})[ _]?Flip$", "nokia 2660 flip"],
      ["(?:iPhone[ _]?X| X)(?:[);/ ]|$)", "iphone_x;"]
    ]
    for (const [pattern, text] of matches) {
      expect(new RegExp(pattern, "i").test(text)).toBe(true)
      const texts = requiredTexts(pattern)
      expect([pattern, texts?.some((t) => `${text}\u0000`.includes(t))]).toEqual([pattern, true])
    }
    // nothing can be read from a pattern that can match any short text
    expect(requiredTexts("[a-z]+\\d")).toBeNull()
  })
})
