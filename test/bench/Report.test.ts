import { describe, expect, test } from "bun:test"
import type { Measured } from "../../bench/run/measure.ts"
import { parseOptions } from "../../bench/run/options.ts"
import { summarise } from "../../bench/run/report.ts"

const measured = (target: Measured["target"], round: number, rps: number): Measured => ({
  workload: "wage",
  target,
  round,
  rps,
  p50Ms: 1,
  p99Ms: 2,
  peakRssMb: 100,
  cpuUs: 100,
  errors: 0
})

/** `rounds` rounds of the service, the baseline and the earlier tree, the service at `share` of the earlier's rate. */
const rounds = (count: number, share: (round: number) => number) =>
  Array.from({ length: count }, (_, i) => [
    measured("baseline", i + 1, 30_000),
    measured("earlier", i + 1, 10_000 + 500 * i),
    measured("service", i + 1, (10_000 + 500 * i) * share(i + 1))
  ]).flat()

/** The round-by-round line of `count` rounds, the service at `share(round)` of the earlier tree's rate. */
const pairedLine = (count: number, share: (round: number) => number) =>
  summarise(rounds(count, share), { ...parseOptions([]), rounds: count }).lines.find((line) =>
    line.includes("round by round")
  )

describe("bun run bench --compare: the service against the earlier tree, round by round", () => {
  test("gives the median of the rounds' ratios and its 95 % interval", () => {
    const line = pairedLine(6, (round) => [0.9, 0.92, 0.95, 0.97, 1.01, 0.93][round - 1]!)
    // six rounds: the interval is their least and greatest; the median the upper middle one
    expect(line).toContain("median x0.950 (95 % x0.900-x1.010: not told apart)")
  })

  test("says which is faster when the interval lies above or below x1", () => {
    expect(pairedLine(6, (round) => 0.9 + round / 100)).toContain("(95 % x0.910-x0.960: the service slower)")
    expect(pairedLine(6, (round) => 1.1 + round / 100)).toContain("(95 % x1.110-x1.160: the service faster)")
  })

  test("gives the same figures as a --json row", () => {
    const { rows } = summarise(
      rounds(6, (round) => 1.1 + round / 100),
      { ...parseOptions([]), rounds: 6 }
    )
    const row = rows.find((row) => "serviceOverEarlierByRound" in row)
    expect(row?.serviceOverEarlierByRound).toEqual({
      median: expect.closeTo(1.14, 9),
      low: expect.closeTo(1.11, 9),
      high: expect.closeTo(1.16, 9)
    })
  })

  test("says nothing of an interval below 6 rounds, where none holds the median with 95 % confidence", () => {
    expect(pairedLine(5, () => 0.9)).toBeUndefined()
  })
})
