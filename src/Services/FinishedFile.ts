/**
 * A file read only once its writer is done with it, for SIGHUP's reload of API_KEYS_FILE: a file caught half-written
 * ("keyB_bb" of "keyB_bbbb...") would make a prefix of a key a valid key. Nothing in a file says it is finished, so
 * the rule reads it twice a settle apart: it must not have changed, and a last line without a newline counts as
 * unfinished until the file has been left alone for a quiet spell. Writing elsewhere and renaming over the file is
 * atomic and needs no rule (docs/OPERATIONS.md).
 */
import { Clock, Effect } from "effect"
import { readRegularFile as snapshot, type Snapshot } from "./RegularFile.ts"

/** Two reads this far apart must agree. */
export const SETTLE_MS = 100
/** A last line without a newline is taken as finished once the file has not been modified for this long. */
export const QUIET_MS = 2_000
/** How long a reload waits for a file that keeps changing before it gives up. */
export const PATIENCE_MS = 10_000

/** Whether `next`, read a settle after `previous`, is a finished file at `now` (epoch ms). */
export const isFinished = (previous: Snapshot, next: Snapshot, now: number): boolean =>
  previous.text === next.text &&
  previous.mtimeMs === next.mtimeMs &&
  (next.text === "" || next.text.endsWith("\n") || now - next.mtimeMs >= QUIET_MS)

/**
 * The file's text once finished; the failure says why not: unreadable or not a regular file of bounded size
 * (RegularFile.ts), or still changing after PATIENCE_MS.
 */
export const readFinishedFile = (path: string): Effect.Effect<string, string> =>
  Effect.gen(function* () {
    const started = yield* Clock.currentTimeMillis
    let previous = snapshot(path)
    while (true) {
      if (typeof previous === "string") return yield* Effect.fail(previous)
      yield* Effect.sleep(SETTLE_MS)
      const next = snapshot(path)
      if (typeof next === "string") return yield* Effect.fail(next)
      const now = yield* Clock.currentTimeMillis
      if (isFinished(previous, next, now)) return next.text
      if (now - started >= PATIENCE_MS) {
        return yield* Effect.fail(
          `${path} was still being written after ${PATIENCE_MS / 1000} s (changing, or its last line without a ` +
            "newline); write the new file elsewhere and rename it over this one"
        )
      }
      previous = next
    }
  })
