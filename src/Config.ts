/**
 * Environment variables, read through `Config` and checked at start. A bad value fails with a ConfigError whose
 * message is one sentence naming the variable; `main.ts` prints it and exits 1.
 */
import { Config, ConfigError, Either, Option } from "effect"

const invalid = (name: string, expected: string, got: string) =>
  Either.left(ConfigError.InvalidData([name], `${name} must be ${expected}, got ${JSON.stringify(got)}`))

/** An integer in [min, max]; absent or empty means the default. */
export const integer = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.mapOrFail((raw) => {
      const text = raw.trim()
      if (text === "") return Either.right(fallback)
      const value = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN
      return Number.isSafeInteger(value) && value >= min && value <= max
        ? Either.right(value)
        : invalid(name, `an integer from ${min} to ${max}`, raw)
    })
  )

const truthy = new Set(["true", "1", "yes", "on"])
const falsy = new Set(["false", "0", "no", "off"])

/** true/false (also 1/0, yes/no, on/off, any case); absent or empty means the default. */
export const boolean = (name: string, fallback: boolean) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.mapOrFail((raw) => {
      const text = raw.trim().toLowerCase()
      if (text === "") return Either.right(fallback)
      if (truthy.has(text)) return Either.right(true)
      if (falsy.has(text)) return Either.right(false)
      return invalid(name, "true or false", raw)
    })
  )

/** One of a fixed set of words (case-insensitive); absent or empty means the default. */
export const oneOf = <const A extends string>(name: string, values: ReadonlyArray<A>, fallback: A) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.mapOrFail((raw) => {
      const text = raw.trim().toLowerCase()
      if (text === "") return Either.right(fallback)
      const found = values.find((value) => value === text)
      return found !== undefined ? Either.right(found) : invalid(name, `one of ${values.join(", ")}`, raw)
    })
  )

/** Optional text; absent or blank is None. */
export const optionalText = (name: string) =>
  Config.string(name).pipe(Config.option, Config.map(Option.filter((s) => s.trim() !== "")))

/** The first invalid variable's sentence, for the one line printed before exit 1. */
export const describe = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
    case "Or":
      return describe(error.left)
    case "InvalidData":
    case "MissingData":
    case "SourceUnavailable":
    case "Unsupported":
      return error.message.includes(error.path.join("_")) ? error.message : `${error.path.join("_")}: ${error.message}`
  }
}
