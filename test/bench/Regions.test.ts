import { describe, expect, test } from "bun:test"
import { regionsOf, totalOf } from "../../bench/lib/regions.ts"

const smaps = [
  "00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/bun",
  "Size:                328 kB",
  "Rss:                 300 kB",
  "7f0000000000-7f0000100000 rw-p 00000000 00:00 0 ",
  "Rss:                1024 kB",
  "Pss:                1024 kB",
  "7f0000100000-7f0000200000 rwxp 00000000 00:00 0",
  "Rss:                 512 kB",
  "7ffd0000000-7ffd0021000 rw-p 00000000 00:00 0 [stack]",
  "Rss:                  16 kB",
  "7f1000000000-7f1000001000 r--p 00000000 08:02 99 /usr/lib/x86_64-linux-gnu/libc.so.6",
  "Rss:                   4 kB"
].join("\n")

describe("bench/lib/regions: resident memory by mapping", () => {
  test("each mapping's Rss counts for its region: files, executable anonymous memory, the rest", () => {
    expect(regionsOf(smaps)).toEqual({ anonymous: (1024 + 16) * 1024, jitCode: 512 * 1024, fileBacked: 304 * 1024 })
  })

  test("the regions add up to the process's resident memory", () => {
    expect(totalOf(regionsOf(smaps))).toBe((300 + 1024 + 512 + 16 + 4) * 1024)
  })

  test("this process's own smaps: some of each, and close to its RSS", async () => {
    const regions = regionsOf(await Bun.file("/proc/self/smaps").text())
    expect(regions.anonymous).toBeGreaterThan(0)
    expect(regions.jitCode).toBeGreaterThan(0)
    expect(regions.fileBacked).toBeGreaterThan(0)
    expect(Math.abs(totalOf(regions) - process.memoryUsage().rss)).toBeLessThan(0.1 * process.memoryUsage().rss)
  })
})
