/** The generated file is read and checked at start, so a damaged one stops it; the lookups build in the background. */
/// <reference path="./Generated.d.ts" />
import { Context, Data, Effect, Fiber, Layer, Schema } from "effect"
import { readFile } from "node:fs/promises"
import file from "../../../../generated/devices.data" with { type: "file" }
import { Slicer } from "../Slicer.ts"
import { build } from "./Build.ts"
import { DeviceData } from "./Data.ts"
import { type Lookups, lookups } from "./Lookup.ts"

/** The file is not whole, or not of this code's shape: the start stops, saying what to do. */
export class DeviceDataUnreadable extends Data.TaggedError("DeviceDataUnreadable")<{ readonly message: string }> {
  override toString(): string {
    return this.message
  }
}

const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(DeviceData))

export const readDeviceData = Effect.fnUntraced(function* (path: string) {
  const unreadable = (problem: string) =>
    new DeviceDataUnreadable({
      message: `the device database ${path} ${problem}: run \`npm run data\` to write it again`
    })
  const text = yield* Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => unreadable(`cannot be read (${error})`)
  })
  if (text === "") return yield* unreadable("is empty")
  return yield* Effect.mapError(decode(text), () => unreadable("is damaged (not the whole JSON the generator writes)"))
})

export class DeviceDatabase extends Context.Service<DeviceDatabase>()("app/DeviceDatabase", {
  make: Effect.gen(function* () {
    const data = yield* readDeviceData(file)
    const { pause } = yield* Slicer
    // a fiber that ends with the build, so nothing keeps the parsed file
    const building = Effect.map(build(data, pause), lookups).pipe(Effect.withSpan("DeviceDatabase.build"))
    return { lookups: Fiber.join(yield* Effect.forkScoped(building)) }
  })
}) {
  static readonly layer: Layer.Layer<DeviceDatabase, DeviceDataUnreadable> = Layer.effect(
    DeviceDatabase,
    DeviceDatabase.make
  ).pipe(Layer.provide(Slicer.layer))
}

/** For scripts and tests. */
export const loadLookups: Effect.Effect<Lookups, DeviceDataUnreadable> = DeviceDatabase.use((db) => db.lookups).pipe(
  Effect.provide(DeviceDatabase.layer)
)
