/**
 * How one environment variable is read, on Effect's `Config`: the rules the settings share (Config.ts's and
 * OtlpConfig.ts's), each written once. Values are trimmed and a blank one is missing, so its default applies. A value
 * a rule refuses stops the start with `InvalidConfig`: one line that names the variable and says what it must be.
 */
import { Config, ConfigProvider, Data, Effect, Option, type Redacted, Schema, SchemaTransformation } from "effect"

export class InvalidConfig extends Data.TaggedError("InvalidConfig")<{ readonly message: string }> {}

/** The one line: `NAME must be …, got "…"`, without the value when it may hold a secret. */
export const refuse = (name: string, must: string, got?: string): InvalidConfig =>
  new InvalidConfig({ message: `${name} must be ${must}${got === undefined ? "" : `, got ${JSON.stringify(got)}`}` })

/**
 * `config` read as `name`. Effect's refusal (a `ConfigError` whose cause is a `SchemaError`) becomes the one line,
 * quoting the value unless `quote` is false; its own message is never shown. A source that fails says so.
 */
export const read = <A>(
  name: string,
  config: Config.Config<A>,
  must: string,
  quote = true
): Effect.Effect<A, InvalidConfig> =>
  Effect.catch(config, (error) => {
    if (error.cause._tag === "SourceError")
      return Effect.fail(new InvalidConfig({ message: `${name} could not be read` }))
    if (!quote) return Effect.fail(refuse(name, must))
    return Effect.flatMap(Effect.orDie(Config.String(name)), (got) => Effect.fail(refuse(name, must, got)))
  })

const trim = (value: string | undefined) => (value?.trim() === "" ? undefined : value?.trim())

/** `provider` with every value trimmed and a blank one missing (an empty variable means the default). */
export const trimmed = (provider: ConfigProvider.ConfigProvider): ConfigProvider.ConfigProvider =>
  ConfigProvider.make((path) =>
    Effect.map(provider.load(path), (node) => {
      if (node === undefined) return undefined
      const value = trim(node.value)
      if (node._tag === "Record") return ConfigProvider.makeRecord(node.keys, value)
      if (node._tag === "Array") return ConfigProvider.makeArray(node.length, value)
      return value === undefined ? undefined : ConfigProvider.makeValue(value)
    })
  )

/** `config` given the value lower-cased, under the same name: `LOG_LEVEL=Debug` is `debug`. */
export const caseless = <A>(name: string, config: Config.Config<A>): Config.Config<A> =>
  Config.String(name).pipe(
    Config.mapEffect((value) => config.parse(ConfigProvider.fromUnknown({ [name]: value.toLowerCase() })))
  )

const orUndefined = <A>(config: Config.Config<A>): Config.Config<A | undefined> =>
  Config.option(config).pipe(Config.map(Option.getOrUndefined))

/** Any text, or undefined when unset. */
export const text = (name: string): Effect.Effect<string | undefined, InvalidConfig> =>
  read(name, orUndefined(Config.String(name)), "text")

/** A secret: wrapped so that it never prints (`<redacted>`), and never quoted in an error. */
export const secret = (name: string): Effect.Effect<Redacted.Redacted<string> | undefined, InvalidConfig> =>
  read(name, orUndefined(Config.Redacted(name)), "text", false)

/**
 * A number in plain decimal (`pattern`), then `number`'s own checks. Effect's `Config.Int` and `Config.Port` read
 * with `Number`, which also takes `1e3` and `0x10`; and PORT=0 (any free port) is below `Config.Port`'s range.
 */
export const numeral = (pattern: RegExp, number: Schema.Codec<number>) =>
  Schema.String.check(Schema.isPattern(pattern)).pipe(Schema.decodeTo(number, SchemaTransformation.numberFromString))

/** An integer in decimal digits (an optional sign, no `1e3`) from `min` to `max`. */
export const Integer = (min: number, max: number) =>
  numeral(/^[+-]?\d+$/, Schema.Int.check(Schema.isBetween({ minimum: min, maximum: max })))

/** An integer in decimal digits from `min` to `max`, or `fallback` when unset. */
export const integer = (
  name: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER
): Effect.Effect<number, InvalidConfig> =>
  read(
    name,
    Config.schema(Integer(min, max), name).pipe(Config.withDefault(fallback)),
    `an integer from ${min} to ${max}`
  )

/** true or false, in any case, as Effect's `Config.Boolean` reads them (also yes/no, on/off, 1/0, y/n). */
export const flag = (name: string, fallback: boolean): Effect.Effect<boolean, InvalidConfig> =>
  read(name, caseless(name, Config.Boolean(name)).pipe(Config.withDefault(fallback)), "true or false")

/** One of `values`, in any case, or undefined when unset. */
export const oneOf = <const L extends ReadonlyArray<string>>(
  name: string,
  values: L,
  quote = true
): Effect.Effect<L[number] | undefined, InvalidConfig> =>
  read(name, orUndefined(caseless(name, Config.Literals(values, name))), `one of ${values.join(", ")}`, quote)

export const isHttp = (url: URL) => url.protocol === "http:" || url.protocol === "https:"

/**
 * A URL that `accept` takes, or undefined when unset. Quoted in an error only if `quote`: a URL may carry a password.
 */
export const url = (
  name: string,
  accept: (url: URL) => boolean,
  must: string,
  quote: boolean
): Effect.Effect<URL | undefined, InvalidConfig> =>
  read(name, orUndefined(Config.schema(Schema.URL.check(Schema.makeFilter(accept)), name)), must, quote)
