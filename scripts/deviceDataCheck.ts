/**
 * Checks the device database whole, as a start from source does (each file's CRC-32 and length against the sums
 * beside them), and exits 1 naming the file if one is damaged:
 *
 *   bun scripts/deviceDataCheck.ts [FOLDER]   # FOLDER: generated/devices
 *
 * `npm run build` runs it before `bun build --compile` embeds the files: the binary's start checks their lengths alone.
 */
import { Effect } from "effect"
import { deviceFilesIn } from "../src/Tools/UserAgent/device/Data.ts"
import { checkDeviceData } from "../src/Tools/UserAgent/device/Check.ts"

const folder = process.argv[2] ?? new URL("../generated/devices", import.meta.url).pathname
const problem = await Effect.runPromise(
  Effect.match(checkDeviceData(deviceFilesIn(folder)), {
    onFailure: (error) => error.message,
    onSuccess: () => undefined
  })
)
if (problem !== undefined) {
  console.error(`deviceDataCheck: ${problem}`)
  process.exit(1)
}
