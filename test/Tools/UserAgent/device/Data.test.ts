import { afterAll, describe, expect, test } from "bun:test"
import { Cause, Effect, Exit, Logger } from "effect"
import { randomBytes } from "node:crypto"
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileTexts, filingData } from "../../../../scripts/deviceData/PatternFiling.ts"
import { BRAND_FILES, deviceFilesIn, filingOf } from "../../../../src/Tools/UserAgent/device/Data.ts"
import { generatedFiles } from "../../../../src/Tools/UserAgent/device/Files.ts"
import {
  checkDeviceData,
  checkDeviceLength,
  DeviceDataUnreadable
} from "../../../../src/Tools/UserAgent/device/Check.ts"
import { readDeviceData } from "../../../../src/Tools/UserAgent/device/Database.ts"

const generated = new URL("../../../../generated/devices", import.meta.url).pathname

const copies: Array<string> = []
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the generated folder, each file as `change` leaves it (by its name). */
const copyOf = (change: (name: string, bytes: Buffer) => Uint8Array | undefined = (_, bytes) => bytes) => {
  const dir = mkdtempSync(join(tmpdir(), "device-data-"))
  copies.push(dir)
  cpSync(generated, dir, { recursive: true })
  for (const name of readdirSync(dir)) {
    const bytes = change(name, readFileSync(join(dir, name)))
    if (bytes === undefined) rmSync(join(dir, name))
    else writeFileSync(join(dir, name), bytes)
  }
  return deviceFilesIn(dir)
}

/** `readDeviceData` of a folder, its index imported from there as a JSON module, as Files.ts imports the generated one
 * (each copy a path of its own, so no module is cached). */
const read = (files: ReturnType<typeof deviceFilesIn>) =>
  readDeviceData(files, () => import(files.index, { with: { type: "json" } }).then((module) => module.default))

/** `effect`'s value, and the messages logged by what it made, then or later (its context's loggers). */
const logged = async <A, E>(effect: Effect.Effect<A, E>) => {
  const lines: Array<string> = []
  const capture = Logger.make(({ logLevel, message }) => {
    lines.push(`${logLevel} ${([] as Array<unknown>).concat(message).join(" ")}`)
  })
  const exit = await Effect.runPromiseExit(effect.pipe(Effect.provide(Logger.layer([capture]))))
  return { value: Exit.isSuccess(exit) ? exit.value : undefined, lines }
}

/** A full collection in a later turn of the event loop: a weakly held value read in this one is kept until it ends. */
const collected = async () => {
  await new Promise((resolve) => setImmediate(resolve))
  Bun.gc(true)
}

const failureOf = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined)
const damagedMessage = (path: string) =>
  `the device database ${path} is damaged (not the whole JSON the generator writes): run \`npm run data\` to write it again`

const samsungAt = (names: ReadonlyArray<string>) => names.lastIndexOf("Samsung")

describe("the generated folder", () => {
  test("reads back whole, a pattern beyond ASCII as the package wrote it (OneClick's `X-music (?:S|Ⅲ|III)`)", async () => {
    const files = deviceFilesIn(generated)
    // all of ASCII, so a process holds the brands' text at a byte a character
    for (const name of readdirSync(generated))
      expect(readFileSync(join(generated, name)).every((byte) => byte < 0x80)).toBe(true)
    const data = await Effect.runPromise(read(files))
    expect(data.index.source).toStartWith("node-device-detector ")
    expect(data.index.alternatives.sources.some((source) => source.includes("X-music (?:S|Ⅲ|III)"))).toBe(true)
    // a line for each brand's models, read when asked for (Samsung's phones: the last of its parsers)
    expect(data.brand(samsungAt(data.index.brands.names))?.patterns.length).toBeGreaterThan(100)
    expect(data.names()?.texts).toContain("fire phone")
    // the folder holds these files and no other: the index, the brands' files, the names and their sums
    expect(readdirSync(generated).sort()).toEqual(
      [files.index, ...files.brands, files.names, files.sums].map((path) => path.slice(generated.length + 1)).sort()
    )
  })

  test("a brands file is read again once its bytes were collected; damaged since, its brands go without models, said once", async () => {
    const files = copyOf()
    const { value: data, lines } = await logged(read(files))
    const brands = data!.index.brands.names
    const samsung = samsungAt(brands)
    // another brand of the same file, and one of another file
    const sameFile = brands.findIndex((_, n) => n !== samsung && n % BRAND_FILES === samsung % BRAND_FILES)
    const otherFile = (samsung + 1) % brands.length
    const file = files.brands[samsung % BRAND_FILES]!
    expect(data!.brand(samsung)?.patterns.length).toBeGreaterThan(100)
    // the bytes read are held weakly: gone after a full collection, then read again from the file
    await collected()
    expect(data!.brand(samsung)?.patterns.length).toBeGreaterThan(100)
    const whole = readFileSync(file)
    writeFileSync(
      file,
      Uint8Array.from(whole, (byte, at) => (at === whole.length >> 1 ? byte ^ 1 : byte))
    )
    // the collector scans the stack conservatively and may keep the bytes a collection or two longer: until they are
    // gone, the file as first read still answers
    for (let tries = 0; tries < 10 && data!.brand(samsung) !== undefined; tries++) await collected()
    expect(data!.brand(samsung)).toBeUndefined()
    expect(data!.brand(sameFile)).toBeUndefined()
    expect(data!.brand(otherFile)?.patterns).toBeArray()
    expect(lines).toEqual([`Error ${damagedMessage(file)}`])
  })

  test("the names damaged since the start: none are read, said in the log", async () => {
    const files = copyOf()
    const { value: data, lines } = await logged(read(files))
    writeFileSync(files.names, readFileSync(files.names).subarray(0, 1000))
    expect(data!.names()).toBeUndefined()
    expect(lines).toEqual([`Error ${damagedMessage(files.names)}`])
  })

  const damages: Array<[string, (whole: Buffer) => Uint8Array]> = [
    ["empty", () => new Uint8Array(0)],
    ["cut in half", (whole) => whole.subarray(0, whole.length >> 1)],
    ["a random body", (whole) => randomBytes(whole.length)],
    ["JSON of another shape", () => new TextEncoder().encode('{"source":"node-device-detector","brands":[]}')]
  ]
  for (const [what, damage] of damages)
    test(`an index ${what} is refused, naming the file and what to do`, async () => {
      const files = copyOf((name, bytes) => (name === "index.json" ? damage(bytes) : bytes))
      const error = failureOf(await Effect.runPromiseExit(read(files)))
      expect(error).toBeInstanceOf(DeviceDataUnreadable)
      expect(String(error)).toBe(damagedMessage(files.index))
    })

  test("the sums missing or damaged are refused, naming their file", async () => {
    const missing = copyOf((name, bytes) => (name === "files.sum" ? undefined : bytes))
    expect(String(failureOf(await Effect.runPromiseExit(read(missing))))).toStartWith(
      `the device database ${missing.sums} cannot be read (`
    )
    const cut = copyOf((name, bytes) => (name === "files.sum" ? bytes.subarray(0, 30) : bytes))
    expect(String(failureOf(await Effect.runPromiseExit(read(cut))))).toBe(damagedMessage(cut.sums))
  })

  test("keeps a filing as it was made: every byte of its pieces (END, beyond ASCII) and every number", () => {
    const filing = fileTexts(["SM-A536(?:[);/ ]|$)", "Galaxy (S\\d+)", "Café[ _]Phone", "[a-z]+\\d"])
    expect([...filing.pieces]).toContain(0)
    expect([...filing.pieces].some((byte) => byte > 0x7f)).toBe(true)
    const again = filingOf(JSON.parse(JSON.stringify(filingData(filing))))
    expect(again).toEqual(filing)
  })
})

describe("the check at start, by the sums the generator writes beside the files", () => {
  const files = deviceFilesIn(generated)
  const checkCopy = async (
    change: Parameters<typeof copyOf>[0],
    check: typeof checkDeviceData | typeof checkDeviceLength = checkDeviceData
  ) => {
    const copy = copyOf(change)
    return { copy, error: failureOf(await Effect.runPromiseExit(check(copy))) }
  }

  test("passes the files as the generator wrote them", async () => {
    expect((await checkCopy(undefined)).error).toBeUndefined()
  })

  // a body of the same length, and one byte changed: only a sum of the whole tells, not a size
  const flip = (whole: Buffer) => Uint8Array.from(whole, (byte, at) => (at === whole.length >> 1 ? byte ^ 1 : byte))
  const damages = [
    ["a random body of the same length", (whole: Buffer) => randomBytes(whole.length)],
    ["one byte changed", flip],
    ["cut in half", (whole: Buffer) => whole.subarray(0, whole.length >> 1)]
  ] as const
  for (const victim of ["index.json", "brands-3.jsonl", "names.jsonl"])
    for (const [what, damage] of damages)
      test(`refuses ${victim} with ${what}, naming the file and what to do`, async () => {
        const { copy, error } = await checkCopy((name, bytes) => (name === victim ? damage(bytes) : bytes))
        expect(String(error)).toBe(damagedMessage(join(copy.sums, "..", victim)))
      })

  // the compiled binary carries the index as code and embeds the other files, checked whole by its build
  test("the binary's start checks the embedded files' lengths, not the index, which it holds as code", async () => {
    expect((await checkCopy(undefined, checkDeviceLength)).error).toBeUndefined()
    const noIndex = await checkCopy((name, bytes) => (name === "index.json" ? undefined : bytes), checkDeviceLength)
    expect(noIndex.error).toBeUndefined()
    for (const damage of [
      (whole: Buffer) => whole.subarray(0, whole.length >> 1),
      (whole: Buffer) => Buffer.concat([whole, whole.subarray(0, 1)])
    ]) {
      const { copy, error } = await checkCopy(
        (name, bytes) => (name === "brands-5.jsonl" ? damage(bytes) : bytes),
        checkDeviceLength
      )
      expect(String(error)).toBe(damagedMessage(copy.brands[5]!))
    }
  })

  test("the build refuses a damaged folder before embedding it (scripts/deviceDataCheck.ts), and passes a whole one", async () => {
    const script = new URL("../../../../scripts/deviceDataCheck.ts", import.meta.url).pathname
    const run = async (folder: string) => {
      const proc = Bun.spawn([process.execPath, script, folder], { stdout: "ignore", stderr: "pipe" })
      const stderr = await new Response(proc.stderr).text()
      return { code: await proc.exited, stderr: stderr.trim() }
    }
    expect(await run(generated)).toEqual({ code: 0, stderr: "" })
    const copy = copyOf((name, bytes) => (name === "brands-0.jsonl" ? flip(bytes) : bytes))
    expect(await run(join(copy.sums, ".."))).toEqual({
      code: 1,
      stderr: `deviceDataCheck: ${damagedMessage(copy.brands[0]!)}`
    })
  })

  test("the files the service checks and embeds (Files.ts) are the generator's, each of them", () => {
    expect(generatedFiles).toEqual(files)
  })
})
