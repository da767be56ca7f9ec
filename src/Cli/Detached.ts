/**
 * `text` in memory of its own, for a string kept past its line: a line's parts share the block of input they were cut
 * from (Bun's engine does not copy a substring), so one kept as it is keeps the whole block alive.
 */
export const detached = (text: string) => Buffer.from(text, "utf8").toString("utf8")
