/**
 * Checks the device database whole, as a start from source does (its CRC-32 and length against the sum beside it),
 * and exits 1 naming the file if it is damaged:
 *
 *   bun scripts/deviceDataCheck.ts [FILE]   # FILE: generated/devices.data; its sum is FILE's .sum beside it
 *
 * `npm run build` runs it before `bun build --compile` embeds the file: the binary's start checks its length alone.
 */
import { Effect } from "effect"
import { checkDeviceData } from "../src/Tools/UserAgent/device/Database.ts"

const file = process.argv[2] ?? new URL("../generated/devices.data", import.meta.url).pathname
const problem = await Effect.runPromise(
  Effect.match(checkDeviceData(file, `${file.replace(/\.data$/, "")}.sum`), {
    onFailure: (error) => error.message,
    onSuccess: () => undefined
  })
)
if (problem !== undefined) {
  console.error(`deviceDataCheck: ${problem}`)
  process.exit(1)
}
