// One variable read on Effect's Config: trimmed, blank as unset, a refused one an InvalidConfig naming it and its rule.
import { Config, ConfigProvider, Data, Effect, type Redacted, Schema, SchemaTransformation } from "effect"

export class InvalidConfig extends Data.TaggedError("InvalidConfig")<{ readonly message: string }> {}

export const invalid = (message: string): InvalidConfig => new InvalidConfig({ message })

/** `NAME must be …, got "…"`, without the value when it may hold a secret. */
export const refuse = (name: string, must: string, got?: string): InvalidConfig =>
  invalid(`${name} must be ${must}${got === undefined ? "" : `, got ${JSON.stringify(got)}`}`)

/** `config` read as `name`, Effect's refusal replaced by ours (its message is never shown). */
export const read = <A>(
  name: string,
  config: Config.Config<A>,
  must: string,
  quote = true
): Effect.Effect<A, InvalidConfig> =>
  Effect.catch(config, (error) => {
    if (error.cause._tag === "SourceError") return Effect.fail(invalid(`${name} could not be read`))
    if (!quote) return Effect.fail(refuse(name, must))
    return Effect.flatMap(Effect.orDie(Config.String(name)), (got) => Effect.fail(refuse(name, must, got)))
  })

/** `codec`'s reading of the variable, `fallback` when it is unset. */
export const decoded = <A, const F>(
  name: string,
  codec: Schema.ConstraintCodec<A, unknown>,
  fallback: F,
  must: string,
  quote = true
): Effect.Effect<A | F, InvalidConfig> =>
  read(name, Config.schema(codec, name).pipe(Config.withDefault(fallback)), must, quote)

export const trimmed = (provider: ConfigProvider.ConfigProvider): ConfigProvider.ConfigProvider =>
  ConfigProvider.make((path) =>
    Effect.map(provider.load(path), (node) => {
      if (node === undefined) return undefined
      const value = node.value?.trim() || undefined
      if (node._tag === "Record") return ConfigProvider.makeRecord(node.keys, value)
      if (node._tag === "Array") return ConfigProvider.makeArray(node.length, value)
      return value === undefined ? undefined : ConfigProvider.makeValue(value)
    })
  )

/** `effect` reading every variable trimmed, a blank one as unset, from the provider in context. */
export const trimmedValues = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideServiceEffect(effect, ConfigProvider.ConfigProvider, Effect.map(ConfigProvider.ConfigProvider, trimmed))

/** `config` given the value lower-cased: `LOG_LEVEL=Debug` is `debug`. */
export const caseless = <A>(name: string, config: Config.Config<A>): Config.Config<A> =>
  Config.String(name).pipe(
    Config.mapEffect((value) => config.parse(ConfigProvider.fromUnknown({ [name]: value.toLowerCase() })))
  )

export const text = (name: string): Effect.Effect<string | undefined, InvalidConfig> =>
  read(name, Config.String(name).pipe(Config.withDefault(undefined)), "text")

/** Never printed (`<redacted>`) nor quoted in an error. */
export const secret = (name: string): Effect.Effect<Redacted.Redacted<string> | undefined, InvalidConfig> =>
  read(name, Config.Redacted(name).pipe(Config.withDefault(undefined)), "text", false)

/** A number in plain decimal (`pattern`): `Config.Int` reads with `Number`, which also takes `1e3` and `0x10`. */
export const numeral = (pattern: RegExp, number: Schema.Codec<number>) =>
  Schema.String.check(Schema.isPattern(pattern)).pipe(Schema.decodeTo(number, SchemaTransformation.numberFromString))

export const Integer = (min: number, max: number) =>
  numeral(/^[+-]?\d+$/, Schema.Int.check(Schema.isBetween({ minimum: min, maximum: max })))

/** `fallback` undefined: the variable is optional. */
export const integer = <F extends number | undefined>(
  name: string,
  fallback: F,
  min: number,
  max = Number.MAX_SAFE_INTEGER
): Effect.Effect<number | F, InvalidConfig> =>
  decoded(name, Integer(min, max), fallback, `an integer from ${min} to ${max}`)

/** As `Config.Boolean` reads it (also yes/no, on/off, 1/0, y/n), in any case. */
export const flag = (name: string, fallback: boolean): Effect.Effect<boolean, InvalidConfig> =>
  read(name, caseless(name, Config.Boolean(name)).pipe(Config.withDefault(fallback)), "true or false")

export const oneOf = <const L extends ReadonlyArray<string>>(
  name: string,
  values: L,
  quote = true
): Effect.Effect<L[number] | undefined, InvalidConfig> =>
  read(
    name,
    caseless(name, Config.Literals(values, name)).pipe(Config.withDefault(undefined)),
    `one of ${values.join(", ")}`,
    quote
  )

export const HttpUrl = Schema.URL.check(
  Schema.makeFilter((url) => url.protocol === "http:" || url.protocol === "https:")
)
