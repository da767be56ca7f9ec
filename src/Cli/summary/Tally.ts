// A field's counts: at most `max` values counted exactly (the first seen), a later value counted in `other`.
import { detached } from "../Detached.ts"

export interface Values {
  readonly values: ReadonlyArray<{ readonly name: string; readonly count: number }>
  readonly other: number
}

const byCount = ([a, m]: readonly [string, number], [b, n]: readonly [string, number]) =>
  n - m || (a < b ? -1 : a > b ? 1 : 0)

export const makeTally = (max: number) => {
  const counts = new Map<string, number>()
  let other = 0

  const add = (value: string, count = 1): void => {
    const seen = counts.get(value)
    if (seen !== undefined) counts.set(value, seen + count)
    else if (counts.size < max) counts.set(detached(value), count)
    else other += count
  }

  return {
    add,
    json: (): Values => ({
      values: [...counts].sort(byCount).map(([name, count]) => ({ name, count })),
      other
    })
  }
}

export type Tally = ReturnType<typeof makeTally>
