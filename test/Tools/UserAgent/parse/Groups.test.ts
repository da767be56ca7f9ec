import { expect, test } from "bun:test"
import * as fc from "fast-check"
import { GROUP_CHARACTERS, groupsOf } from "../../../../src/Tools/UserAgent/parse/Groups.ts"

const strings = fc.array(fc.string({ maxLength: 2_100 }), { maxLength: 120 })
const length = (group: ReadonlyArray<string>) => group.reduce((sum, userAgent) => sum + userAgent.length, 0)

test("groups keep every string, in order, each group within GROUP_CHARACTERS unless it holds one string", () => {
  fc.assert(
    fc.property(strings, (userAgents) => {
      const groups = groupsOf(userAgents)
      expect(groups.flat()).toEqual(userAgents)
      for (const group of groups) {
        expect(group.length).toBeGreaterThan(0)
        if (group.length > 1) expect(length(group)).toBeLessThanOrEqual(GROUP_CHARACTERS)
      }
    })
  )
})

test("a group ends only where the next string would not fit", () => {
  fc.assert(
    fc.property(strings, (userAgents) => {
      const groups = groupsOf(userAgents)
      groups.slice(1).forEach((group, g) => {
        expect(length(groups[g]!) + group[0]!.length).toBeGreaterThan(GROUP_CHARACTERS)
      })
    })
  )
})

test("a common string (111 characters) goes 18 to a group; a string of 2,048 characters is a group of its own", () => {
  const chrome =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
  expect(groupsOf(Array(32).fill(chrome)).map((group) => group.length)).toEqual([18, 14])
  const long = "x".repeat(2_048)
  expect(groupsOf([chrome, long, chrome]).map((group) => group.length)).toEqual([1, 1, 1])
})
