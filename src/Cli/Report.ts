/**
 * What an offline command writes, and how it ends when it cannot answer (exit status 1, stdout carrying answers only):
 * a refusal as the API's error body on stderr, a bad UA_CACHE_SIZE or device database as the server's start failure,
 * output that cannot be written or a bug as one line. SIGINT or SIGTERM: 130, so a script knows the answer is partial.
 */
import { Cause, Data, Effect, PlatformError, Predicate, Schema, Stdio, Stream } from "effect"
import { InvalidRequest, InvalidRequestWire, InvalidValue, InvalidValueWire } from "../Errors.ts"
import { exitOnInterrupt, reportStartFailure } from "../Platform/Runtime.ts"

export class Refused extends Data.TaggedError("Refused") {}

/** A failed write fails the command, and `report` tells why. */
export const stdout = (text: string) => Stdio.Stdio.use((stdio) => Stream.run(Stream.make(text), stdio.stdout()))

/** A failed write here has nowhere left to be told. */
export const stderr = (text: string) =>
  Stdio.Stdio.use((stdio) => Stream.run(Stream.make(text), stdio.stderr())).pipe(Effect.ignore)

/** The `error` of the API's error body. */
export const body = (error: InvalidRequest | InvalidValue) =>
  error instanceof InvalidValue
    ? Schema.encodeSync(InvalidValueWire)(error).error
    : Schema.encodeSync(InvalidRequestWire)(error).error

/**
 * The line for a write to stdout that failed (a full disk, a descriptor closed at start), or undefined for any other
 * failure. A reader that is gone (`| head`, EPIPE) chose to stop reading: the run ends quietly.
 */
const failedWrite = (error: unknown): string | undefined => {
  if (!PlatformError.isPlatformError(error) || !(error.reason instanceof PlatformError.SystemError)) return undefined
  const { module, method, description, cause } = error.reason
  if (module !== "Stdio" || method !== "stdout") return undefined
  if (Predicate.hasProperty(cause, "code") && cause.code === "EPIPE") return undefined
  return `tools-api: cannot write the output to stdout: ${description ?? "I/O error"}\n`
}

/** `named` rewrites a refusal's line: wage names its flags where the API names its fields. */
export const reportNaming =
  (named: (line: string) => string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(
      Effect.catchIf(
        (error: E): error is Extract<E, InvalidRequest | InvalidValue> =>
          error instanceof InvalidRequest || error instanceof InvalidValue,
        (error) => Effect.andThen(stderr(`${named(JSON.stringify({ error: body(error) }))}\n`), new Refused())
      ),
      Effect.tapCause((cause) => {
        const error = Cause.squash(cause)
        if (Cause.hasDies(cause)) return stderr(`tools-api: internal error: ${String(error)}\n`)
        const write = failedWrite(error)
        if (write !== undefined) return stderr(write)
        const startFailure =
          Predicate.isTagged(error, "InvalidConfig") || Predicate.isTagged(error, "DeviceDataUnreadable")
        return startFailure ? Effect.sync(() => reportStartFailure(error)) : Effect.void
      }),
      exitOnInterrupt(130)
    )

export const report = reportNaming((line) => line)
