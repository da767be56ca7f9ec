// The device database's files against the sums the generator wrote beside them (scripts/deviceData.ts): at start,
// and each time a file is read later.
import { Data, Effect } from "effect"
import { readFileSync, statSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { type DeviceFiles, inOrder, lengthOf, sumOf, sumsIn } from "./Data.ts"

/** A file is not whole, or not of this code's shape: the start stops, saying what to do. */
export class DeviceDataUnreadable extends Data.TaggedError("DeviceDataUnreadable")<{ readonly message: string }> {
  override toString(): string {
    return this.message
  }
}

export const unreadable = (path: string, problem: string) =>
  new DeviceDataUnreadable({
    message: `the device database ${path} ${problem}: run \`npm run data\` to write it again`
  })

const read = (path: string) =>
  Effect.tryPromise({ try: () => readFile(path), catch: (error) => unreadable(path, `cannot be read (${error})`) })

export const damaged = (path: string) => unreadable(path, "is damaged (not the whole JSON the generator writes)")

/** Each file's sum, in `inOrder`'s order. Its few bytes are read at once, as an asynchronous read would start Bun's
 * pool of threads, which a start that reads nothing else never needs. */
export const writtenSums = (files: DeviceFiles) =>
  Effect.try({
    try: () => readFileSync(files.sums, "latin1"),
    catch: (error) => unreadable(files.sums, `cannot be read (${error})`)
  }).pipe(
    Effect.flatMap((text) => {
      const sums = sumsIn(text, inOrder(files).length)
      return sums === undefined ? Effect.fail(damaged(files.sums)) : Effect.succeed(sums)
    })
  )

/** Every file is the one the generator wrote, whole: checked by its sum, without parsing it. */
export const checkDeviceData = Effect.fnUntraced(function* (files: DeviceFiles) {
  const sums = yield* writtenSums(files)
  for (const [at, path] of inOrder(files).entries()) {
    const bytes = yield* read(path)
    if (bytes.length === 0) return yield* unreadable(path, "is empty")
    if (sumOf(bytes) !== sums[at]) return yield* damaged(path)
  }
})

/** The files a compiled binary embeds (all but the index, which is code) are as long as their sums say, unread. */
export const checkDeviceLength = Effect.fnUntraced(function* (files: DeviceFiles) {
  const sums = yield* writtenSums(files)
  for (const [at, path] of inOrder(files).entries()) {
    if (path === files.index) continue
    const size = yield* Effect.try({
      try: () => statSync(path).size,
      catch: (error) => unreadable(path, `cannot be read (${error})`)
    })
    if (size === 0) return yield* unreadable(path, "is empty")
    if (lengthOf(sums[at]!) !== size) return yield* damaged(path)
  }
})

/** A file's bytes, read at once inside a lookup and checked by its sum; one that cannot be read whole throws. */
export const readChecked = (path: string, sum: string): Buffer => {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (error) {
    throw unreadable(path, `cannot be read (${error})`)
  }
  if (sumOf(bytes) !== sum) throw damaged(path)
  return bytes
}
