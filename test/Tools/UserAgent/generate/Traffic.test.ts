import { describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import * as fc from "fast-check"
import { makeSlicer } from "../../../../src/Tools/UserAgent/Slicer.ts"
import { trafficEntries } from "../../../../src/Tools/UserAgent/generate/Traffic.ts"

const entries = (text: string) => Effect.runPromise(trafficEntries(text, makeSlicer()))
const pick = (items: ReadonlyArray<{ userAgent?: unknown; weight?: unknown }>) =>
  items.flatMap(({ userAgent, weight }) =>
    typeof userAgent === "string" && typeof weight === "number" ? [{ userAgent, weight }] : []
  )

describe("trafficEntries: the data set read a slice at a time", () => {
  test("the package's file gives what one JSON.parse of it gives", async () => {
    const text = readFileSync("node_modules/user-agents/dist/user-agents.json", "utf8")
    expect(await entries(text)).toEqual(pick(JSON.parse(text)))
  })

  test("property: any array of objects, nested, with braces, quotes and escapes in its strings", async () => {
    const entry = fc.record(
      {
        userAgent: fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom('}{"\\', "a}b", '{"x":1}'), fc.integer()),
        weight: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
        nested: fc.jsonValue(),
        "}": fc.constant("{")
      },
      { requiredKeys: [] }
    )
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 20 }), fc.constantFrom(undefined, 2), async (items, indent) => {
        const text = JSON.stringify(items, null, indent)
        expect(await entries(text)).toEqual(pick(JSON.parse(text)))
      })
    )
  })
})
