/**
 * At start the generated files are only checked whole (Check.ts), so a damaged one stops the start. The index is
 * loaded, as a JSON module, and the lookups built on the first string that needs them; a brand's file is read on the
 * brand's first string and checked by its sum again. The compiled binary carries the index as code and embeds the
 * other files, checked whole by its build (scripts/deviceDataCheck.ts): its start checks their lengths alone, as
 * reading them whole costs the binary's start a tenth of its CPU and the service its idle RSS.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { Slicer } from "../Slicer.ts"
import { build } from "./Build.ts"
import { checkDeviceData, checkDeviceLength, damaged, DeviceDataUnreadable, readChecked, writtenSums } from "./Check.ts"
import { BRAND_FILES, BrandModels, type DeviceFile, type DeviceFiles, DeviceIndex, ModelNames } from "./Data.ts"
import { generatedFiles, importIndex } from "./Files.ts"
import { type Lookups, lookups } from "./Lookup.ts"

const decodeIndex = Schema.decodeUnknownEffect(DeviceIndex)
const decodeBrand = Schema.decodeUnknownSync(Schema.fromJsonString(BrandModels))
const decodeNames = Schema.decodeUnknownSync(Schema.fromJsonString(ModelNames))

interface Lines {
  readonly bytes: Buffer
  readonly ends: ReadonlyArray<number>
}

/**
 * Line n of a brands file of `count` lines, read while the collector leaves its bytes (brands come in bursts): every
 * megabyte kept costs the service several of peak RSS under load. Made outside `readDeviceData`, so that its closure
 * keeps nothing of the index.
 */
const linesOf = (path: string, sum: string, count: number) => {
  let held: WeakRef<Lines> | undefined
  const lines = (): Lines => {
    const kept = held?.deref()
    if (kept !== undefined) return kept
    const bytes = readChecked(path, sum)
    const ends: Array<number> = []
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at)
    if (ends.length !== count) throw damaged(path)
    const read: Lines = { bytes, ends }
    held = new WeakRef(read)
    return read
  }
  return (n: number): string => {
    const { bytes, ends } = lines()
    return bytes.toString("latin1", n === 0 ? 0 : ends[n - 1]! + 1, ends[n])
  }
}

/**
 * The index (`loadIndex`: Files.ts's import, whose literal path the compiled binary embeds) decoded by its Schema; a
 * brand's line, or the names, read and decoded when asked for, each file checked by its sum as it is read.
 */
export const readDeviceData = Effect.fnUntraced(function* (files: DeviceFiles, loadIndex: () => Promise<unknown>) {
  const sums = yield* writtenSums(files)
  const json = yield* Effect.tryPromise({ try: loadIndex, catch: () => damaged(files.index) })
  const index = yield* Effect.mapError(decodeIndex(json), () => damaged(files.index))
  const brands = index.brands.names.length
  // brands file k holds brands k, k + BRAND_FILES, …
  const lines = files.brands.map((path, k) => linesOf(path, sums[1 + k]!, Math.ceil((brands - k) / BRAND_FILES)))
  // a file damaged since the start leaves out what it holds (the string decides without it), said once in the log
  const run = Effect.runSyncWith(yield* Effect.context<never>())
  let told = false
  const unlessDamaged = <A>(path: string, read: () => A): A | undefined => {
    try {
      return read()
    } catch (error) {
      const problem = error instanceof DeviceDataUnreadable ? error : damaged(path)
      if (!told) run(Effect.logError(problem.message))
      told = true
      return undefined
    }
  }
  const file: DeviceFile = {
    index,
    brand: (n) =>
      unlessDamaged(files.brands[n % BRAND_FILES]!, () =>
        decodeBrand(lines[n % BRAND_FILES]!(Math.floor(n / BRAND_FILES)))
      ),
    names: () =>
      unlessDamaged(files.names, () => decodeNames(readChecked(files.names, sums.at(-1)!).toString("latin1")))
  }
  return file
})

const none: Lookups = { identify: () => undefined, scan: () => undefined }

export class DeviceDatabase extends Context.Service<DeviceDatabase>()("app/DeviceDatabase", {
  make: Effect.gen(function* () {
    // documented: true in a process `bun build --compile` made, whose files imported `with { type: "file" }` it embeds
    yield* Bun.isStandaloneExecutable ? checkDeviceLength(generatedFiles) : checkDeviceData(generatedFiles)
    const { pause } = yield* Slicer
    // checked at start, and again when read: an index damaged since the start leaves the parses without the database
    // (no vendor or name from it, the type from the string), a brands file its brands' models; said once in the log
    let built: Lookups | undefined
    const building = Effect.gen(function* () {
      const data = yield* readDeviceData(generatedFiles, importIndex)
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
