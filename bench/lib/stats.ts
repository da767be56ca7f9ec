/** The few statistics the bench scripts print: means of rounds and medians of interleaved runs. */

export const mean = (xs: ReadonlyArray<number>): number => xs.reduce((a, b) => a + b, 0) / xs.length

/** The middle value (the upper one of an even count): a slow outlier from a busy machine does not move it. */
export const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
