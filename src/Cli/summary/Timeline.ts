// Traffic by hour as the log's own clock writes it (`2026-11-26T10` and its offset), told by day for a long log.

export interface Bucket {
  /** The hour's or day's start as the log writes time: `2026-11-26T10:00+00:00`, `2026-11-26T00:00+00:00`. */
  readonly start: string
  readonly humans: number
  readonly bots: number
  /** Humans by device type. */
  readonly deviceType: Readonly<Record<string, number>>
}

export interface Timeline {
  readonly unit: "hour" | "day"
  readonly buckets: ReadonlyArray<Bucket>
  /** Lines in hours past the bound (over eleven years of hours). */
  readonly other: number
}

/** Hours kept: eleven years of a log, a few megabytes. */
const MAX_HOURS = 100_000
/** More days than this are told by day. */
const HOURLY_DAYS = 3
const BOTS = "\u0000bots"

export const makeTimeline = () => {
  const hours = new Map<string, Record<string, number>>()
  let other = 0

  const count = (key: string, what: string, n: number) => {
    let hour = hours.get(key)
    if (hour === undefined) {
      if (hours.size >= MAX_HOURS) {
        other += n
        return
      }
      hour = {}
      hours.set(key, hour)
    }
    hour[what] = (hour[what] ?? 0) + n
  }

  // the last line's hour (a log runs in time order): a line of the same hour is counted without making its key
  let lastHead = ""
  let lastOffset = ""
  let lastKey = ""

  /** `time`: log.time, `2026-11-26T10:00:01+00:00`. */
  const add = (time: string, isBot: boolean, deviceType: string) => {
    if (
      time.length !== lastHead.length + 6 + lastOffset.length ||
      !time.startsWith(lastHead) ||
      !time.endsWith(lastOffset)
    ) {
      lastHead = time.slice(0, 13)
      lastOffset = time.slice(19)
      lastKey = `${lastHead}${lastOffset}`
    }
    count(lastKey, isBot ? BOTS : deviceType, 1)
  }

  const json = (): Timeline | null => {
    if (hours.size === 0) return null
    const days = new Set([...hours.keys()].map((key) => key.slice(0, 10)))
    const unit = days.size > HOURLY_DAYS ? "day" : "hour"
    const merged = new Map<string, Record<string, number>>()
    for (const [key, counts] of hours) {
      const start =
        unit === "day" ? `${key.slice(0, 10)}T00:00${key.slice(13)}` : `${key.slice(0, 13)}:00${key.slice(13)}`
      const into = merged.get(start) ?? {}
      for (const [what, n] of Object.entries(counts)) into[what] = (into[what] ?? 0) + n
      merged.set(start, into)
    }
    const buckets = [...merged]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([start, { [BOTS]: bots = 0, ...deviceType }]) => ({
        start,
        humans: Object.values(deviceType).reduce((sum, n) => sum + n, 0),
        bots,
        deviceType
      }))
    return { unit, buckets, other }
  }

  return {
    add,
    json
  }
}
