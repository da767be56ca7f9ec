import { describe, expect, test } from "bun:test"
import { median, medianInterval } from "../../bench/lib/stats.ts"

describe("medianInterval", () => {
  test("is undefined below 6 values, where no pair holds the median with 95 % confidence", () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined()
    expect(medianInterval([1, 2, 3, 4, 5, 6])).toEqual([1, 6])
  })

  test("takes the order statistics of the sign rule's tables (n = 41: the 14th least and greatest)", () => {
    const values = Array.from({ length: 41 }, (_, i) => 41 - i)
    expect(medianInterval(values)).toEqual([14, 28])
    // n = 20: the 6th least and greatest
    expect(medianInterval(Array.from({ length: 20 }, (_, i) => i + 1))).toEqual([6, 15])
  })

  test("holds the median, and narrows as the values grow in number", () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => 1 + ((i * 37) % n) / n)
    const [low41, high41] = medianInterval(values(41))!
    const [low401, high401] = medianInterval(values(401))!
    expect(low41).toBeLessThanOrEqual(median(values(41)))
    expect(high41).toBeGreaterThanOrEqual(median(values(41)))
    expect(high401 - low401).toBeLessThan(high41 - low41)
  })

  test("works for counts whose probabilities underflow a double", () => {
    const interval = medianInterval(Array.from({ length: 5000 }, (_, i) => i))!
    expect(interval[0]).toBeGreaterThan(2300)
    expect(interval[1]).toBeLessThan(2700)
  })
})
