// `tools-api wage`: the value goes through the API's request schema: the same inputs refused for the same reasons.
import { Effect, Record, Result, Schema } from "effect"
import { Command, Flag } from "effect/cli"
import { PAYLOAD_PARSE_OPTIONS } from "../Api.ts"
import { fromPayloadIssue } from "../Http/SchemaErrors.ts"
import { JSON_NUMBER } from "../Tools/Wage/Amount.ts"
import { Estimator } from "../Tools/Wage/Estimator.ts"
import { assumptions, WageBody } from "../Tools/Wage/Schemas.ts"
import { reportNaming, stdout } from "./Report.ts"

/** A JSON number's text, trimmed: the service computes from it exactly as written, as from a body's. */
const written = (text: string): string => (JSON_NUMBER.test(text.trim()) ? text.trim() : text)

// as the API decodes a body: the error says which of the two forms was meant, the amount exactly as written
const decode = Schema.decodeUnknownResult(WageBody, PAYLOAD_PARSE_OPTIONS)

const FLAGS: Readonly<Record<string, string>> = { hourlyWage: "--hourly", annualSalary: "--annual" }

const amount = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withDescription(description), Flag.withMetavar("N"), Flag.optional)
const flags = {
  hourly: amount("hourly", "An hourly wage (give this or --annual)"),
  annual: amount("annual", "An annual salary (give this or --hourly)")
}

const run = Effect.fn("Cli.wage")(
  function* (options: Command.Command.Config.Infer<typeof flags>) {
    const texts = Record.map(Record.getSomes({ hourlyWage: options.hourly, annualSalary: options.annual }), written)
    // the body the API would be sent: a JSON number where one is written, else a string it refuses
    const fields = Object.entries(texts).map(
      ([field, text]) => `"${field}":${JSON_NUMBER.test(text) ? text : JSON.stringify(text)}`
    )
    const request = decode(`{${fields.join(",")}}`)
    if (Result.isFailure(request)) return yield* fromPayloadIssue(request.failure.issue)
    const estimates = yield* (yield* Estimator).estimate(request.success)
    yield* stdout(`${JSON.stringify({ estimates, assumptions })}\n`)
  },
  Effect.provide(Estimator.layer),
  reportNaming((line) => line.replace(/\b(hourlyWage|annualSalary)\b/g, (field) => FLAGS[field] ?? field))
)

export const WageCommand = Command.make("wage", flags, run).pipe(
  Command.withShortDescription("An hourly wage or annual salary across six pay periods"),
  Command.withDescription(
    "Convert an hourly wage or an annual salary across six pay periods, as the API's wage estimator does " +
      "(8 hours a day, 5 days a week, 52 weeks a year)."
  )
)
