/**
 * `tools-api wage --hourly N | --annual N`: the API's answer without its `success` flag, `{"estimates", "assumptions"}`,
 * as one JSON line. The value goes through the API's own request schema, so the same inputs are refused for the same
 * reasons, in the API's error body, naming the flags where the API names its fields.
 */
import { Effect, Option, Result, Schema, Stdio, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { PAYLOAD_PARSE_OPTIONS } from "../Api.ts"
import { InvalidRequest, InvalidValue } from "../Errors.ts"
import { fromSchemaIssue } from "../Http/SchemaErrors.ts"
import { Estimator } from "../Tools/Wage/Estimator.ts"
import { assumptions, WageRequest } from "../Tools/Wage/Schemas.ts"
import { report } from "./Report.ts"

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** The flag's text as the API would see it in a body: a number when it is written as a JSON number, else a string. */
const value = (text: string): unknown => (JSON_NUMBER.test(text.trim()) ? Number(text.trim()) : text)

/**
 * What the service computes from: a JSON number's text, read exactly as written (`--hourly 1.00499999999999999999`
 * is 1.00 an hour, as in the API's body), else the text, which it refuses as the API refuses a string.
 */
const written = (text: string): string => (JSON_NUMBER.test(text.trim()) ? text.trim() : text)

// with the input in its issues, as the API decodes a payload: the error says which of the two forms was meant
const decode = Schema.decodeUnknownResult(WageRequest, PAYLOAD_PARSE_OPTIONS)

const FLAGS: Readonly<Record<string, string>> = { hourlyWage: "--hourly", annualSalary: "--annual" }
const flagged = (text: string) => text.replace(/\b(hourlyWage|annualSalary)\b/g, (field) => FLAGS[field] ?? field)

/** The API's refusal, with the flags named where it names its fields. */
const inFlags = <E>(error: E): E | InvalidRequest | InvalidValue => {
  if (!(error instanceof InvalidRequest || error instanceof InvalidValue)) return error
  const fields = {
    message: flagged(error.message),
    ...(error.details === undefined
      ? {}
      : { details: error.details.map((d) => ({ path: flagged(d.path), message: flagged(d.message) })) })
  }
  return error instanceof InvalidValue ? new InvalidValue(fields) : new InvalidRequest(fields)
}

const run = Effect.fn("Cli.wage")(
  function* (flags: { readonly hourly: Option.Option<string>; readonly annual: Option.Option<string> }) {
    const estimator = yield* Estimator
    const stdio = yield* Stdio.Stdio
    const body = {
      ...Option.match(flags.hourly, { onNone: () => ({}), onSome: (text) => ({ hourlyWage: value(text) }) }),
      ...Option.match(flags.annual, { onNone: () => ({}), onSome: (text) => ({ annualSalary: value(text) }) })
    }
    const request = decode(body)
    if (Result.isFailure(request)) return yield* fromSchemaIssue(request.failure.issue)
    const estimates = yield* estimator.estimate(
      Option.isSome(flags.hourly)
        ? { hourlyWage: written(flags.hourly.value) }
        : { annualSalary: written(Option.getOrElse(flags.annual, () => "")) }
    )
    yield* Stream.run(Stream.make(`${JSON.stringify({ estimates, assumptions })}\n`), stdio.stdout())
  },
  Effect.mapError(inFlags),
  Effect.provide(Estimator.layer),
  report
)

export const WageCommand = Command.make(
  "wage",
  {
    hourly: Flag.String("hourly").pipe(
      Flag.withDescription("An hourly wage (give this or --annual)"),
      Flag.withMetavar("N"),
      Flag.optional
    ),
    annual: Flag.String("annual").pipe(
      Flag.withDescription("An annual salary (give this or --hourly)"),
      Flag.withMetavar("N"),
      Flag.optional
    )
  },
  run
).pipe(
  Command.withShortDescription("An hourly wage or annual salary across six pay periods"),
  Command.withDescription(
    "Convert an hourly wage or an annual salary across six pay periods, as the API's wage estimator does " +
      "(8 hours a day, 5 days a week, 52 weeks a year)."
  )
)
