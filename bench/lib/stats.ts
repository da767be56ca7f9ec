/** The few statistics the bench scripts print: means of rounds and medians of interleaved runs. */

export const mean = (xs: ReadonlyArray<number>): number => xs.reduce((a, b) => a + b, 0) / xs.length

/** The middle value (the upper one of an even count): a slow outlier from a busy machine does not move it. */
export const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * A 95 % confidence interval for the median, from order statistics (the binomial sign rule: no assumption about the
 * values' distribution): the k-th least and k-th greatest, k the largest with P(Binomial(n, ½) < k) ≤ 2.5 %.
 * Undefined below 6 values, where no pair of them holds the median with 95 % confidence.
 */
export const medianInterval = (xs: ReadonlyArray<number>): readonly [number, number] | undefined => {
  const n = xs.length
  // P(X = i) in logs, so that it does not underflow for large n
  let logP = -n * Math.LN2
  let below = 0
  let k = 0
  while (below + Math.exp(logP) <= 0.025) {
    below += Math.exp(logP)
    k += 1
    logP += Math.log((n - k + 1) / k)
  }
  if (k === 0) return undefined
  const sorted = [...xs].sort((a, b) => a - b)
  return [sorted[k - 1]!, sorted[n - k]!]
}
