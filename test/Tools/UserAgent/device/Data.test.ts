import { describe, expect, test } from "bun:test"
import { Cause, Effect, Exit } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  checkDeviceData,
  checkDeviceLength,
  DeviceDataUnreadable,
  readDeviceData
} from "../../../../src/Tools/UserAgent/device/Database.ts"
import { filingOf } from "../../../../src/Tools/UserAgent/device/Data.ts"
import { fileTexts, filingData } from "../../../../scripts/deviceData/PatternFiling.ts"

const generated = new URL("../../../../generated/devices.data", import.meta.url).pathname

/** A full collection in a later turn of the event loop: a weakly held value read in this one is kept until it ends. */
const collected = async () => {
  await new Promise((resolve) => setImmediate(resolve))
  Bun.gc(true)
}

/** Full collections a turn apart until `ref` is cleared, ten at most: the collector scans the stack conservatively, so
 * a stale pointer there can keep an object for a collection or two (this test failed 4 times in 12 with one). */
const collectedAway = async (ref: WeakRef<object>) => {
  for (let tries = 0; tries < 10 && ref.deref() !== undefined; tries++) await collected()
}

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
    // read in place: a brand's line is read again from the file once the collector has taken its bytes
    const exit = await Effect.runPromiseExit(readDeviceData(generated))
    expect(Exit.isSuccess(exit)).toBe(true)
    const data = Exit.isSuccess(exit) ? exit.value : undefined
    expect(data?.index.source).toStartWith("node-device-detector ")
    expect(data?.index.alternatives.sources.some((source) => source.includes("X-music (?:S|Ⅲ|III)"))).toBe(true)
    // a line for each brand's models, read when asked for (Samsung's phones: the last of its parsers)
    const samsung = data!.index.brands.names.lastIndexOf("Samsung")
    expect(data?.brand(samsung).patterns.length).toBeGreaterThan(100)
    expect(data?.names().texts).toContain("fire phone")
  })

  test("a brand first asked for after the file's bytes were collected is read from the file again, if unchanged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "device-data-"))
    const path = join(dir, "devices.data")
    writeFileSync(path, whole)
    try {
      const data = await Effect.runPromise(readDeviceData(path))
      const brand = (name: string) => data.brand(data.index.brands.names.lastIndexOf(name))
      // the bytes read at first are held weakly: gone after a full collection
      await collected()
      expect(brand("Samsung").patterns.length).toBeGreaterThan(100)
      writeFileSync(
        path,
        Uint8Array.from(whole, (byte, at) => (at === whole.length >> 1 ? byte ^ 1 : byte))
      )
      await collected()
      expect(() => brand("Xiaomi")).toThrow(`the device database ${path} has changed since it was first read`)
    } finally {
      rmSync(dir, { recursive: true })
    }
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

describe("the check at start, by the sum the generator writes beside the file", () => {
  const whole = readFileSync(generated)
  const sum = readFileSync(generated.replace(/\.data$/, ".sum"))

  /** What `checkFile` makes of a file holding `bytes` beside the generator's sum of the real one. */
  const check = async (
    bytes: Uint8Array,
    checkFile: (path: string, sumPath: string) => Effect.Effect<unknown, DeviceDataUnreadable> = checkDeviceData
  ) => {
    const dir = mkdtempSync(join(tmpdir(), "device-sum-"))
    const [path, sumPath] = [join(dir, "devices.data"), join(dir, "devices.sum")]
    writeFileSync(path, bytes)
    writeFileSync(sumPath, sum)
    try {
      return { path, exit: await Effect.runPromiseExit(checkFile(path, sumPath)) }
    } finally {
      rmSync(dir, { recursive: true })
    }
  }

  test("passes the file as the generator wrote it", async () => {
    expect(Exit.isSuccess((await check(whole)).exit)).toBe(true)
  })

  // a body of the same length, and one byte changed: only a sum of the whole tells, not a size
  const flipped = Uint8Array.from(whole, (byte, at) => (at === whole.length >> 1 ? byte ^ 1 : byte))
  for (const [what, bytes] of [
    ["a random body of the same length", randomBytes(whole.length)],
    ["one byte changed", flipped],
    ["cut in half", whole.subarray(0, whole.length >> 1)]
  ] as const)
    test(`refuses ${what}, naming the file and what to do`, async () => {
      const { path, exit } = await check(bytes)
      const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(String(error)).toBe(
        `the device database ${path} is damaged (not the whole JSON the generator writes): run \`npm run data\` to write it again`
      )
    })

  // the compiled binary's copy, checked whole by its build: its start reads the length only
  test("the binary's start passes the file as the generator wrote it, and refuses one of another length", async () => {
    expect(Exit.isSuccess((await check(whole, checkDeviceLength)).exit)).toBe(true)
    for (const bytes of [whole.subarray(0, whole.length >> 1), Buffer.concat([whole, whole.subarray(0, 1)])]) {
      const { path, exit } = await check(bytes, checkDeviceLength)
      const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(String(error)).toBe(
        `the device database ${path} is damaged (not the whole JSON the generator writes): run \`npm run data\` to write it again`
      )
    }
  })

  test("the build refuses a damaged file before embedding it (scripts/deviceDataCheck.ts), and passes a whole one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "device-build-"))
    const [path, sumPath] = [join(dir, "devices.data"), join(dir, "devices.sum")]
    const script = new URL("../../../../scripts/deviceDataCheck.ts", import.meta.url).pathname
    const run = async () => {
      const proc = Bun.spawn([process.execPath, script, path], { stdout: "ignore", stderr: "pipe" })
      const stderr = await new Response(proc.stderr).text()
      return { code: await proc.exited, stderr: stderr.trim() }
    }
    try {
      writeFileSync(sumPath, sum)
      writeFileSync(path, whole)
      expect(await run()).toEqual({ code: 0, stderr: "" })
      writeFileSync(path, flipped)
      expect(await run()).toEqual({
        code: 1,
        stderr: `deviceDataCheck: the device database ${path} is damaged (not the whole JSON the generator writes): run \`npm run data\` to write it again`
      })
    } finally {
      rmSync(dir, { recursive: true })
    }
  })

  test("the bytes the start checked serve the first read while held; once collected, the file is read and checked again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "device-checked-"))
    const [path, sumPath] = [join(dir, "devices.data"), join(dir, "devices.sum")]
    writeFileSync(path, whole)
    writeFileSync(sumPath, sum)
    try {
      const checked = await Effect.runPromise(checkDeviceData(path, sumPath))
      writeFileSync(path, whole.subarray(0, 1000))
      // still held in this turn: the file as checked, not as it is now
      const data = await Effect.runPromise(readDeviceData(path, sumPath, checked))
      expect(data.brand(data.index.brands.names.lastIndexOf("Samsung")).patterns.length).toBeGreaterThan(100)
      await collectedAway(checked.bytes)
      expect(checked.bytes.deref()).toBeUndefined()
      const exit = await Effect.runPromiseExit(readDeviceData(path, sumPath, checked))
      expect(String(Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined)).toBe(
        `the device database ${path} is damaged (not the whole JSON the generator writes): run \`npm run data\` to write it again`
      )
    } finally {
      rmSync(dir, { recursive: true })
    }
  })
})
