/**
 * Token buckets: capacity C, refilled continuously at C tokens per window. Pure maths plus a bounded table; the
 * caller supplies the time, so the same code serves the in-process limiter and tests driven by TestClock.
 */

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  /** Whole tokens left after this request (floor). */
  readonly remaining: number
  /** Whole seconds until the bucket is full again (ceil, >= 0). */
  readonly resetSeconds: number
  /** When not allowed: whole seconds until one token is back (ceil, at least 1); else 0. */
  readonly retryAfterSeconds: number
}

export interface BucketShape {
  readonly capacity: number
  readonly windowMs: number
}

/**
 * `level` counts tokens in units of 1/windowMs of a token, so a refill adds exactly `elapsedMs * capacity` units:
 * integer arithmetic, no drift (six refills of 100 ms give exactly one token at 100/min, which floats would not).
 */
export interface Bucket {
  readonly level: number
  readonly updatedAtMs: number
}

const fullLevel = (shape: BucketShape) => shape.capacity * shape.windowMs

/** The level at `nowMs`; a missing bucket is a full one. A clock that steps back refills nothing. */
export const levelAt = (shape: BucketShape, bucket: Bucket | undefined, nowMs: number): number =>
  bucket === undefined
    ? fullLevel(shape)
    : Math.min(fullLevel(shape), bucket.level + Math.max(0, nowMs - bucket.updatedAtMs) * shape.capacity)

export const isFull = (shape: BucketShape, bucket: Bucket | undefined, nowMs: number): boolean =>
  levelAt(shape, bucket, nowMs) >= fullLevel(shape)

/** Takes one token if there is one; when there is none, takes nothing. */
export const take = (
  shape: BucketShape,
  bucket: Bucket | undefined,
  nowMs: number
): { readonly bucket: Bucket; readonly decision: RateLimitDecision } => {
  const before = levelAt(shape, bucket, nowMs)
  const allowed = before >= shape.windowMs
  const level = allowed ? before - shape.windowMs : before
  return { bucket: { level, updatedAtMs: nowMs }, decision: decide(shape, allowed, level) }
}

/** The decision for a bucket left at `level` units; shared with the Redis script, which returns the same two values. */
export const decide = (shape: BucketShape, allowed: boolean, level: number): RateLimitDecision => {
  const unit = shape.windowMs
  // Units refill at `capacity` per ms, so `units / (capacity * 1000)` is seconds.
  const seconds = (units: number) => Math.ceil(units / (shape.capacity * 1000))
  return {
    allowed,
    limit: shape.capacity,
    remaining: Math.floor(level / unit),
    resetSeconds: seconds(fullLevel(shape) - level),
    retryAfterSeconds: allowed ? 0 : Math.max(1, seconds(unit - level))
  }
}

/**
 * Buckets by key with a hard size cap. Map order is least recently used first (entries are re-inserted on use), so
 * eviction drops the oldest, and full buckets -- the same as no bucket -- are swept from the front as we go.
 */
export class BucketTable {
  private readonly buckets = new Map<string, Bucket>()
  readonly maxEntries: number

  constructor(
    readonly shape: BucketShape,
    maxEntries: number
  ) {
    this.maxEntries = Math.max(1, Math.floor(maxEntries))
  }

  get size(): number {
    return this.buckets.size
  }

  take(key: string, nowMs: number): RateLimitDecision {
    const result = take(this.shape, this.buckets.get(key), nowMs)
    this.buckets.delete(key)
    this.sweep(nowMs)
    // Past the cap the least recently used bucket goes: under that many distinct callers per window, forgetting
    // the stalest one is the price of bounded memory.
    while (this.buckets.size >= this.maxEntries) {
      const oldest = this.buckets.keys().next()
      if (oldest.done === true) break
      this.buckets.delete(oldest.value)
    }
    this.buckets.set(key, result.bucket)
    return result.decision
  }

  /** Drops full buckets from the front; a couple per call keeps the cost constant. */
  private sweep(nowMs: number): void {
    for (let i = 0; i < 2; i++) {
      const first = this.buckets.entries().next()
      if (first.done === true || !isFull(this.shape, first.value[1], nowMs)) return
      this.buckets.delete(first.value[0])
    }
  }
}
