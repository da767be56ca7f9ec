// What the offline commands share: the server's services, writing, and failing (exit status 1, stdout answers only):
// a refusal as the API's error body on stderr, a bad setting as the server's start failure, anything else one line.
import {
  Cause,
  ConfigProvider,
  Data,
  Effect,
  Layer,
  Logger,
  PlatformError,
  Predicate,
  Schema,
  Stdio,
  Stream
} from "effect"
import { uaCacheSize } from "../Config.ts"
import { InvalidRequest, InvalidRequestWire, InvalidValue, InvalidValueWire } from "../Errors.ts"
import { Metrics } from "../Observability/Metrics.ts"
import { exitOnInterrupt, reportStartFailure } from "../Platform/Runtime.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"
import { Slicer } from "../Tools/UserAgent/Slicer.ts"

/** Offline, a log's many distinct agents repeat further apart than a server's: a bigger cache unless UA_CACHE_SIZE says. */
const offlineDefaults = ConfigProvider.layerAdd(ConfigProvider.fromUnknown({ UA_CACHE_SIZE: "50000" }))

/**
 * Offline, stdout holds the answers: a log line from a run that uses the parser (a device file damaged since the start,
 * said by the parse that found it) goes to stderr.
 */
const logToStderr = Layer.succeed(Logger.LogToStderr, true)

/** The parse cache reads UA_CACHE_SIZE itself: a PORT or a key file has no say in a parse. */
export const UserAgentsLive = UserAgents.layer.pipe(
  Layer.provide([Metrics.layer, offlineDefaults, Slicer.none]),
  Layer.merge(logToStderr)
)

/** UA_CACHE_SIZE as `parse` reads it, for the answers it keeps itself (parse/Known.ts). */
export const offlineCacheSize = uaCacheSize.pipe(Effect.provide(offlineDefaults))

/** For `parse`, whose own cache keeps far less than a parse for each agent: the service keeps none, whatever the environment says. */
export const UncachedUserAgentsLive = UserAgents.layer.pipe(
  Layer.provide([
    Metrics.layer,
    ConfigProvider.layerAdd(ConfigProvider.fromUnknown({ UA_CACHE_SIZE: "0" }), { asPrimary: true }),
    Slicer.none
  ]),
  Layer.merge(logToStderr)
)

/** Told on stderr already: exit status 1. */
export class Refused extends Data.TaggedError("Refused") {}

export const stdout = (text: string) => Stdio.Stdio.use((stdio) => Stream.run(Stream.make(text), stdio.stdout()))

/** A failed write here has nowhere left to be told. */
export const stderr = (text: string) =>
  Stdio.Stdio.use((stdio) => Stream.run(Stream.make(text), stdio.stderr())).pipe(Effect.ignore)

/** The `error` of the API's error body. */
export const body = (error: InvalidRequest | InvalidValue) =>
  error instanceof InvalidValue
    ? Schema.encodeSync(InvalidValueWire)(error).error
    : Schema.encodeSync(InvalidRequestWire)(error).error

/** The line for a failed write to stdout; none for a reader that is gone (`| head`, EPIPE): it chose to stop. */
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
      exitOnInterrupt
    )

export const report = reportNaming((line) => line)
