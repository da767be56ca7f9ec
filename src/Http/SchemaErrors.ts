// A payload its schema refuses as the contract's 400; a response its schema refuses is a bug: a defect, a 500.
import { Effect, SchemaAST, type SchemaIssue } from "effect"
import { type HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { RequestErrors } from "../Api.ts"
import { INVALID_VALUE, InvalidRequest, InvalidValue, ValueErrors } from "../Errors.ts"
import { clip } from "./Clip.ts"
import { alternatives, discriminator, literals } from "./Unions.ts"

const show = (value: unknown): string => {
  if (value === undefined) return "nothing"
  try {
    return clip(JSON.stringify(value) ?? String(value))
  } catch {
    return "a value"
  }
}

const TYPE_NAMES: Partial<Record<SchemaAST.AST["_tag"], string>> = {
  String: "a string",
  Number: "a JSON number",
  Boolean: "true or false",
  Objects: "an object"
}

interface Failure {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  /** A key the input lacks, rather than a value it holds. */
  readonly missing?: true
  /** A value present but not allowed (its issue carries INVALID_VALUE): a 422. */
  readonly invalidValue?: true
  /** The whole message, where it is not the path and `message`. */
  readonly sentence?: string
}

/** The fields an object schema, or a union of them, takes: what the message for a field it does not take lists. */
const fieldsOf = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  if (ast._tag === "Objects") return ast.propertySignatures.map((property) => String(property.name))
  if (ast._tag === "Union") return [...new Set(ast.types.flatMap(fieldsOf))]
  return []
}

const notAField = (path: ReadonlyArray<PropertyKey>, ast: SchemaAST.AST): Failure => {
  const takes = fieldsOf(ast).join(", ")
  const field = clip(String(path.at(-1)))
  return {
    path,
    message: `is not a field of this endpoint (it takes ${takes})`,
    sentence: `${field} is not a field of this endpoint; it takes ${takes}`
  }
}

/** A key of the input no member of `union` takes, which Schema's excess-property check refused it for. */
const unknownKey = (union: SchemaAST.Union, input: unknown): string | undefined => {
  if (typeof input !== "object" || input === null) return undefined
  const known = new Set(fieldsOf(union))
  return Object.keys(input).find((key) => !known.has(key))
}

const further = (a: Failure, b: Failure): boolean =>
  a.path.length > b.path.length || (a.path.length === b.path.length && b.missing === true && a.missing !== true)

const messageOf = (annotations: { readonly message?: unknown } | undefined): string | undefined =>
  typeof annotations?.message === "string" ? annotations.message : undefined

const first = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): Failure => {
  switch (issue._tag) {
    case "Pointer":
      return first(issue.issue, [...path, ...issue.path])
    case "Filter":
    case "Encoding": {
      // a check's own message (`isInt({ message })`), or a field's over its JSON codec's, stands over the generic one
      const inner = first(issue.issue, path)
      const message = messageOf(issue._tag === "Filter" ? issue.filter.annotations : issue.ast.annotations)
      return message === undefined || inner.path.length !== path.length ? inner : { ...inner, message }
    }
    case "Composite":
      return first(issue.issues[0], path)
    case "AnyOf": {
      const unknown = unknownKey(issue.ast, issue.input)
      if (unknown !== undefined) return notAField([...path, unknown], issue.ast)
      const forms = alternatives(issue.ast, issue.input)
      if (forms !== undefined) return { path, message: forms }
      // Of the members the input could be, the one it went furthest into: the deepest path (parse's `userAgents[3]`
      // over the single form's missing `userAgent`), then a value given over a key missing; else the first.
      const failures = issue.issues.map((member) => first(member, path))
      if (failures.length > 0)
        return failures.reduce((furthest, failure) => (further(failure, furthest) ? failure : furthest))
      const tag = discriminator(issue.ast)
      const input = issue.input as Record<PropertyKey, unknown> | undefined
      if (tag !== undefined && typeof input === "object" && input !== null) {
        return { path: [...path, tag.key], message: `must be ${tag.allowed}, got ${show(input[tag.key])}` }
      }
      const allowed = literals(issue.ast)
      const message = messageOf(issue.ast.annotations) ?? `must be ${allowed ?? "another value"}`
      return { path, message: allowed === undefined ? message : `${message}, got ${show(issue.input)}` }
    }
    case "MissingKey":
      return { path, message: issue.annotations?.messageMissingKey ?? "is required", missing: true }
    case "InvalidType":
      return {
        path,
        message: messageOf(issue.ast.annotations) ?? `must be ${TYPE_NAMES[issue.ast._tag] ?? "of another type"}`
      }
    case "InvalidValue": {
      const message = messageOf(issue.annotations) ?? "is not an allowed value"
      return issue.annotations?.[INVALID_VALUE] === true ? { path, message, invalidValue: true } : { path, message }
    }
    case "UnexpectedKey":
      return notAField(path, issue.ast)
    case "Forbidden":
    case "OneOf":
      return { path, message: "is not allowed" }
  }
}

const judged = (issue: SchemaIssue.Issue) => {
  const failure = first(issue, [])
  if (failure.path.length === 0) return { fields: { message: failure.message }, invalidValue: false }
  // a path holds the client's own keys (a header's name): each is echoed clipped, as every input is
  const path = failure.path
    .map((segment, i) =>
      typeof segment === "number" ? `[${segment}]` : `${i === 0 ? "" : "."}${clip(String(segment))}`
    )
    .join("")
  const fields = {
    message: failure.sentence ?? `${path} ${failure.message}`,
    details: [{ path, message: failure.message }]
  }
  return { fields, invalidValue: failure.invalidValue === true }
}

/** The 400 for a schema's issue. */
export const fromSchemaIssue = (issue: SchemaIssue.Issue): InvalidRequest => new InvalidRequest(judged(issue).fields)

/** A payload's issue: the 422 where it marks a value present but not allowed (INVALID_VALUE), else the 400. */
export const fromPayloadIssue = (issue: SchemaIssue.Issue): InvalidRequest | InvalidValue => {
  const { fields, invalidValue } = judged(issue)
  return invalidValue ? new InvalidValue(fields) : new InvalidRequest(fields)
}

// The body's own bytes are the client's; a response its schema refuses is a bug: a defect, a 500.
const toError =
  <E>(fromIssue: (issue: SchemaIssue.Issue) => E) =>
  (error: HttpApiError.HttpApiSchemaError) =>
    error.kind === "Body" || error.kind === "ResponseHeaders"
      ? Effect.die(error)
      : Effect.fail(fromIssue(error.cause.issue))

export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, toError(fromSchemaIssue))

export const ValueErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(ValueErrors, toError(fromPayloadIssue))
