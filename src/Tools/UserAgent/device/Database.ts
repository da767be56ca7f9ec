/**
 * At start the generated file is only checked whole (its CRC-32 and length against the sum the generator wrote beside
 * it), so a damaged one stops the start; it is read and its lookups built on the first string that needs them. The
 * compiled binary's embedded copy was checked whole by its build (scripts/deviceDataCheck.ts): its start checks the
 * length alone, as reading it whole costs the binary's start a tenth of its CPU and the service its idle RSS.
 */
/// <reference path="./Generated.d.ts" />
import { Context, Data, Effect, Layer, Schema } from "effect"
import { readFileSync, statSync } from "node:fs"
import { readFile } from "node:fs/promises"
import file from "../../../../generated/devices.data" with { type: "file" }
import sumFile from "../../../../generated/devices.sum" with { type: "file" }
import { Slicer } from "../Slicer.ts"
import { build } from "./Build.ts"
import { BrandModels, type DeviceFile, DeviceIndex, lengthOf, ModelNames, sumOf } from "./Data.ts"
import { type Lookups, lookups } from "./Lookup.ts"

/** The file is not whole, or not of this code's shape: the start stops, saying what to do. */
export class DeviceDataUnreadable extends Data.TaggedError("DeviceDataUnreadable")<{ readonly message: string }> {
  override toString(): string {
    return this.message
  }
}

const unreadable = (path: string, problem: string) =>
  new DeviceDataUnreadable({
    message: `the device database ${path} ${problem}: run \`npm run data\` to write it again`
  })

const read = (path: string, problem: string) =>
  Effect.tryPromise({ try: () => readFile(path), catch: (error) => unreadable(path, `${problem} (${error})`) })

const damaged = (path: string) => unreadable(path, "is damaged (not the whole JSON the generator writes)")

/** The sum the generator wrote beside the file, undefined if it cannot be read: its few bytes read at once, as an
 * asynchronous read would start Bun's pool of threads, which a start that reads nothing else never needs. */
const writtenSum = (sumPath: string) =>
  Effect.orElseSucceed(
    Effect.try(() => readFileSync(sumPath, "latin1")),
    () => undefined
  )

/** The bytes a check read and their sum, held weakly: the first read takes them while the collector leaves them. */
export interface Checked {
  readonly bytes: WeakRef<Buffer>
  readonly sum: string
}

/** The file is the one the generator wrote, whole: checked by its sum, without parsing it. */
export const checkDeviceData = Effect.fnUntraced(function* (path: string, sumPath: string) {
  const bytes = yield* read(path, "cannot be read")
  if (bytes.length === 0) return yield* unreadable(path, "is empty")
  const sum = sumOf(bytes)
  if ((yield* writtenSum(sumPath)) !== sum) return yield* damaged(path)
  const checked: Checked = { bytes: new WeakRef(bytes), sum }
  return checked
})

/** The file is as long as the sum says, without reading it: for the compiled binary's copy, checked whole at build. */
export const checkDeviceLength = Effect.fnUntraced(function* (path: string, sumPath: string) {
  const size = yield* Effect.try({
    try: () => statSync(path).size,
    catch: (error) => unreadable(path, `cannot be read (${error})`)
  })
  if (size === 0) return yield* unreadable(path, "is empty")
  const sum = yield* writtenSum(sumPath)
  if (sum === undefined || lengthOf(sum) !== size) return yield* damaged(path)
  return undefined
})

const decodeIndex = Schema.decodeUnknownEffect(Schema.fromJsonString(DeviceIndex))
const decodeBrand = Schema.decodeUnknownSync(Schema.fromJsonString(BrandModels))
const decodeNames = Schema.decodeUnknownSync(Schema.fromJsonString(ModelNames))

/**
 * Line n of the file, read from `bytes` while the collector leaves them (brands come in bursts): every megabyte kept
 * costs the service several of peak RSS under load. Later the file is read again, whole (a compiled binary can read
 * its embedded file no other way), and taken only if its sum is still `sum`. Made outside the generator below, so
 * that its closures keep nothing of the first read but where the lines end.
 */
const linesOf = (path: string, bytes: Buffer, sum: string) => {
  const ends: Array<number> = []
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at)
  let held = new WeakRef(bytes)
  const bytesNow = (): Buffer => {
    const kept = held.deref()
    if (kept !== undefined) return kept
    const again = readFileSync(path)
    if (sumOf(again) !== sum) throw unreadable(path, "has changed since it was first read")
    held = new WeakRef(again)
    return again
  }
  return {
    count: ends.length,
    line: (n: number): string => bytesNow().toString("latin1", n === 0 ? 0 : ends[n - 1]! + 1, ends[n])
  }
}

/**
 * The file's index decoded; a brand's line, or the names', decoded when asked for (JSON Lines: scripts/deviceData.ts).
 * The bytes a check read (`checked`) are taken while still held, so a start's parse reads and sums the file once.
 */
export const readDeviceData = Effect.fnUntraced(function* (path: string, sumPath?: string, checked?: Checked) {
  const held = checked?.bytes.deref()
  const bytes = held ?? (yield* read(path, "cannot be read"))
  if (bytes.length === 0) return yield* unreadable(path, "is empty")
  // bytes still held were summed and checked when read
  const checkedSum = held === undefined ? undefined : checked?.sum
  const sum = checkedSum ?? sumOf(bytes)
  const written = sumPath === undefined || checkedSum !== undefined ? sum : yield* writtenSum(sumPath)
  if (written !== sum) return yield* damaged(path)
  const { count, line } = linesOf(path, bytes, sum)
  const index = yield* Effect.mapError(decodeIndex(line(0)), () => damaged(path))
  if (count !== index.brands.names.length + 2) return yield* damaged(path)
  const file: DeviceFile = {
    index,
    brand: (n) => decodeBrand(line(n + 1)),
    names: () => decodeNames(line(count - 1))
  }
  return file
})

const none: Lookups = { identify: () => undefined, scan: () => undefined }

export class DeviceDatabase extends Context.Service<DeviceDatabase>()("app/DeviceDatabase", {
  make: Effect.gen(function* () {
    // documented: true in a process `bun build --compile` made, whose files imported `with { type: "file" }` it embeds
    const checked = yield* Bun.isStandaloneExecutable
      ? checkDeviceLength(file, sumFile)
      : checkDeviceData(file, sumFile)
    const { pause } = yield* Slicer
    // checked at start, and again if read again: a file damaged since the start leaves the parses without the
    // database (no vendor or name from it, the type from the string), said once in the log, never a failed request
    let built: Lookups | undefined
    const building = Effect.gen(function* () {
      const data = yield* readDeviceData(file, sumFile, checked)
      return lookups(yield* build(data, pause))
    }).pipe(
      Effect.catchTag("DeviceDataUnreadable", (error) => Effect.as(Effect.logError(error.message), none)),
      Effect.tap((made) =>
        Effect.sync(() => {
          built = made
        })
      ),
      Effect.withSpan("DeviceDatabase.build")
    )
    return {
      lookups: yield* Effect.cached(building),
      /** the lookups once built, else undefined: a parse that asks them nothing need not wait for them */
      built: (): Lookups | undefined => built
    }
  })
}) {
  static readonly layer: Layer.Layer<DeviceDatabase, DeviceDataUnreadable, Slicer> = Layer.effect(
    DeviceDatabase,
    DeviceDatabase.make
  )
}

/** For scripts and tests. */
export const loadLookups: Effect.Effect<Lookups, DeviceDataUnreadable> = DeviceDatabase.use((db) => db.lookups).pipe(
  Effect.provide(DeviceDatabase.layer.pipe(Layer.provide(Slicer.layer)))
)
