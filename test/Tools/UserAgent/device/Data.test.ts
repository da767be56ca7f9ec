import { describe, expect, test } from "bun:test"
import { Cause, Effect, Exit } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DeviceDataUnreadable, readDeviceData } from "../../../../src/Tools/UserAgent/device/Database.ts"
import { filingOf } from "../../../../src/Tools/UserAgent/device/Data.ts"
import { fileTexts, filingData } from "../../../../scripts/deviceData/PatternFiling.ts"

const generated = new URL("../../../../generated/devices.data", import.meta.url).pathname

/** What `readDeviceData` makes of a file holding `bytes`: the data, or its failure. */
const readBack = async (bytes: Uint8Array) => {
  const dir = mkdtempSync(join(tmpdir(), "device-data-"))
  const path = join(dir, "devices.data")
  writeFileSync(path, bytes)
  try {
    return { path, exit: await Effect.runPromiseExit(readDeviceData(path)) }
  } finally {
    rmSync(dir, { recursive: true })
  }
}

describe("the generated data file", () => {
  const whole = readFileSync(generated)

  test("reads back whole, a pattern beyond ASCII as the package wrote it (OneClick's `X-music (?:S|Ⅲ|III)`)", async () => {
    // all of ASCII, so a process holds its text at a byte a character
    expect(whole.every((byte) => byte < 0x80)).toBe(true)
    const { exit } = await readBack(whole)
    expect(Exit.isSuccess(exit)).toBe(true)
    const data = Exit.isSuccess(exit) ? exit.value : undefined
    expect(data?.source).toStartWith("node-device-detector ")
    expect(data?.alternatives.sources.some((source) => source.includes("X-music (?:S|Ⅲ|III)"))).toBe(true)
    expect(data?.models.starts.length).toBe(data!.brands.names.length + 1)
  })

  const damaged: Array<[string, Uint8Array]> = [
    ["empty", new Uint8Array(0)],
    ["cut in half", whole.subarray(0, whole.length >> 1)],
    ["a random body", randomBytes(whole.length)],
    ["JSON of another shape", new TextEncoder().encode('{"source":"node-device-detector","brands":[]}')]
  ]
  for (const [what, bytes] of damaged)
    test(`is refused when ${what}, naming the file and what to do`, async () => {
      const { path, exit } = await readBack(bytes)
      const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(error).toBeInstanceOf(DeviceDataUnreadable)
      expect(String(error)).toStartWith(`the device database ${path} `)
      expect(String(error)).toEndWith(": run `npm run data` to write it again")
    })

  test("keeps a filing as it was made: every byte of its pieces (END, beyond ASCII) and every number", () => {
    const filing = fileTexts(["SM-A536(?:[);/ ]|$)", "Galaxy (S\\d+)", "Café[ _]Phone", "[a-z]+\\d"])
    expect([...filing.pieces]).toContain(0)
    expect([...filing.pieces].some((byte) => byte > 0x7f)).toBe(true)
    const again = filingOf(JSON.parse(JSON.stringify(filingData(filing))))
    expect(again).toEqual(filing)
  })
})
