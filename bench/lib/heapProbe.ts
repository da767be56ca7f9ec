/**
 * Preloaded into a server by bench/peakRegions.ts (`bun --preload`): every 50 ms, the largest JavaScript heap seen so
 * far (JSC's `heapStats()`: its capacity and the bytes in use), written as JSON to HEAP_PROBE_FILE every half second.
 * The timer does not keep the process alive.
 */
import { heapStats } from "bun:jsc"
import { writeFileSync } from "node:fs"

const file = process.env.HEAP_PROBE_FILE
const largest = { heapCapacity: 0, heapSize: 0 }
let samples = 0

if (file !== undefined) {
  setInterval(() => {
    const now = heapStats()
    largest.heapCapacity = Math.max(largest.heapCapacity, now.heapCapacity)
    largest.heapSize = Math.max(largest.heapSize, now.heapSize)
    samples += 1
    if (samples % 10 === 0) writeFileSync(file, JSON.stringify(largest))
  }, 50).unref()
}
