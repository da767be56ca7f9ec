/**
 * How an offline command ends when it cannot answer. Refused (the API would answer 400 or 422): the API's error body,
 * `{"error":{code,message,details?}}`, as one JSON line on stderr. A bad setting (UA_CACHE_SIZE) or a damaged device
 * database: the server's one line saying so. Output that cannot be written (stdout closed, a full disk): one line
 * saying why, and the run ends. A bug: one line, no stack. Each is exit status 1; stdout carries answers only.
 * Stopped by SIGINT or SIGTERM: 130, so a script does not take what was written for the whole answer.
 */
import { Cause, Data, Effect, PlatformError, Predicate, Runtime, Schema, Stdio, Stream } from "effect"
import type { InvalidConfig } from "../Config.ts"
import { InvalidRequest, InvalidRequestWire, InvalidValue, InvalidValueWire } from "../Errors.ts"
import { reportStartFailure } from "../Platform/CommandLine.ts"
import { DeviceDataUnreadable } from "../Tools/UserAgent/device/Database.ts"
import { exitOnInterrupt } from "../Platform/Runtime.ts"

export class Refused extends Data.TaggedError("Refused")<{ readonly code: string }> {
  override readonly [Runtime.errorExitCode] = 1
}

const body = (error: InvalidRequest | InvalidValue) =>
  error._tag === "InvalidValue"
    ? Schema.encodeSync(InvalidValueWire)(error).error
    : Schema.encodeSync(InvalidRequestWire)(error).error

const isRefusal = (error: unknown): error is InvalidRequest | InvalidValue =>
  error instanceof InvalidRequest || error instanceof InvalidValue

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

const isStartFailure = (error: unknown): error is InvalidConfig | DeviceDataUnreadable =>
  (error as { readonly _tag?: unknown } | undefined)?._tag === "InvalidConfig" || error instanceof DeviceDataUnreadable

export const report = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    const stderr = (text: string) => Stream.run(Stream.make(text), stdio.stderr()).pipe(Effect.ignore)
    return yield* self.pipe(
      Effect.catchIf(
        (error: E): error is Extract<E, InvalidRequest | InvalidValue> => isRefusal(error),
        (error) => {
          const refusal = body(error)
          return Effect.andThen(stderr(`${JSON.stringify({ error: refusal })}\n`), new Refused({ code: refusal.code }))
        }
      ),
      Effect.tapCause((cause) => {
        const error = Cause.squash(cause)
        if (Cause.hasDies(cause)) return stderr(`tools-api: internal error: ${String(error)}\n`)
        const write = failedWrite(error)
        if (write !== undefined) return stderr(write)
        return isStartFailure(error) ? Effect.sync(() => reportStartFailure(error)) : Effect.void
      }),
      exitOnInterrupt(130)
    )
  })
