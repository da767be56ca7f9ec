/** A request body as its endpoint's schema reads it: JSON text parsed once into an object, nested a bounded depth. */
import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** Without a limit, thousands of nested arrays make a schema error's message recurse through all of them. */
export const MAX_JSON_DEPTH = 32

/** Brackets counted outside strings: exact for valid JSON, which is all it is asked about. */
export const depthOf = (text: string): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      // a backslash escapes the character after it
      if (c === 92) i++
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      depth++
      deepest = Math.max(deepest, depth)
    } else if (c === 125 || c === 93) depth--
  }
  return deepest
}

/** `JSON.parse`'s reviver, with the source text of each number and string (ES2025, as Bun has it). */
export type Reviver = (this: unknown, key: string, value: unknown, context?: { readonly source?: string }) => unknown
/** `JSON.stringify`'s replacer, for a client that encodes what the reviver decoded; `this` holds the value as it was. */
export type Replacer = (this: Readonly<Record<string, unknown>>, key: string, value: unknown) => unknown

const refuse = (message: string, input: string) => Effect.fail(new SchemaIssue.InvalidValue({ message }, input))

const parse =
  (reviver: Reviver | undefined) =>
  (text: string): Effect.Effect<unknown, SchemaIssue.Issue> => {
    let json: unknown
    try {
      json = JSON.parse(text, reviver)
    } catch {
      return refuse("The request body is not valid JSON", text)
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return refuse("The request body must be a JSON object", text)
    }
    if (depthOf(text) > MAX_JSON_DEPTH) {
      return refuse(`The request body nests more than ${MAX_JSON_DEPTH} levels deep`, text)
    }
    return Effect.succeed(json)
  }

/**
 * `schema` read from an `application/json` body's text: one parse (with `reviver`, if given) and one decode, which
 * refuses fields the schema does not name when the API's parse options say so.
 */
export const jsonBody = <S extends Schema.Top>(
  schema: S,
  options: { readonly examples: ReadonlyArray<S["Encoded"]>; readonly reviver?: Reviver; readonly replacer?: Replacer }
) =>
  Schema.String.check(
    // documented as the object the text holds, not as a string
    Schema.makeFilter(() => true, {
      representation: {
        id: "tools-api/jsonBody",
        payload: null,
        schemas: [Schema.toEncoded(schema).annotate({ examples: options.examples }).ast]
      },
      toJsonSchema: ({ schemas }) => schemas[0] ?? {}
    })
  ).pipe(
    Schema.decodeTo(
      schema,
      SchemaTransformation.transformEffect<unknown, string>({
        decode: parse(options.reviver),
        encode: (value) => Effect.succeed(JSON.stringify(value, options.replacer))
      })
    ),
    HttpApiSchema.asText({ contentType: "application/json" })
  )
