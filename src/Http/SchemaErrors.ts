/**
 * A payload that does not match its schema, as the contract's error: the first failing field names the path and
 * says in a sentence what is allowed; a value given but not allowed (a field a tool marks `INVALID_VALUE`, such as a
 * wage amount) is a 422, anything else a 400.
 * A response that does not match its own schema is a bug: it stays a defect, answered 500 by the edge.
 */
import { Effect, type SchemaAST, type SchemaIssue } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { RequestErrors } from "../Api.ts"
import { InvalidRequest, InvalidValue, isInvalidValue } from "../Errors.ts"
import { clip } from "./Clip.ts"

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

/** What a union of literals allows, as `one of "a", "b"`; undefined for any other union. */
const literals = (ast: SchemaAST.AST): string | undefined => {
  if (ast._tag === "Literal") return JSON.stringify(ast.literal)
  if (ast._tag !== "Union") return undefined
  const members = ast.types.map(literals)
  return members.every((m) => m !== undefined) ? `one of ${members.join(", ")}` : undefined
}

/** The key every member of a union of objects fixes to a literal (a discriminator such as `operation`). */
const discriminator = (ast: SchemaAST.Union): { key: PropertyKey; allowed: string } | undefined => {
  const [first, ...rest] = ast.types
  if (first?._tag !== "Objects") return undefined
  for (const property of first.propertySignatures) {
    const values = ast.types.map((member) =>
      member._tag === "Objects" ? member.propertySignatures.find((p) => p.name === property.name)?.type : undefined
    )
    if (rest.length > 0 && values.every((v) => v?._tag === "Literal")) {
      // two forms of one operation (parse one string, parse many) name it once
      const allowed = [...new Set(values.map((v) => literals(v!)))]
      return { key: property.name, allowed: `one of ${allowed.join(", ")}` }
    }
  }
  return undefined
}

interface Failure {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  readonly marked: boolean
  /** A key the input lacks, rather than a value it holds. */
  readonly missing?: true
}

const further = (a: Failure, b: Failure): boolean =>
  a.path.length > b.path.length || (a.path.length === b.path.length && b.missing === true && a.missing !== true)

const messageOf = (annotations: { readonly message?: unknown } | undefined): string | undefined =>
  typeof annotations?.message === "string" ? annotations.message : undefined

/** The first failure in the issue tree, with the path that leads to it. */
const first = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, marked: boolean): Failure => {
  switch (issue._tag) {
    case "Pointer":
      return first(issue.issue, [...path, ...issue.path], marked)
    case "Filter": {
      const annotations = issue.filter.annotations as Readonly<Record<PropertyKey, unknown>> | undefined
      const inner = first(issue.issue, path, marked || isInvalidValue(annotations))
      // a check's own message (`isInt({ message })`) stands over the generic one of the value it refused
      const message = messageOf(annotations)
      return message === undefined || inner.path.length !== path.length ? inner : { ...inner, message }
    }
    case "Encoding": {
      // A field's own annotations (a marked's message and mark) stand over its JSON codec's failure.
      const annotations = issue.ast.annotations as Readonly<Record<PropertyKey, unknown>> | undefined
      const inner = first(issue.issue, path, marked || isInvalidValue(annotations))
      const message = messageOf(annotations)
      return message === undefined || inner.path.length !== path.length ? inner : { ...inner, message }
    }
    case "Composite":
      return first(issue.issues[0], path, marked)
    case "AnyOf": {
      // Of the members the input could be, the one it went furthest into: the deepest path (parse's `userAgents[3]`
      // over the single form's missing `userAgent`), then a value given over a key missing; else the first.
      let furthest: Failure | undefined
      for (const member of issue.issues) {
        const failure = first(member, path, marked)
        if (furthest === undefined || further(failure, furthest)) furthest = failure
      }
      if (furthest !== undefined) return furthest
      const tag = discriminator(issue.ast)
      const input = issue.input as Record<PropertyKey, unknown> | undefined
      if (tag !== undefined && typeof input === "object" && input !== null) {
        return { path: [...path, tag.key], message: `must be ${tag.allowed}, got ${show(input[tag.key])}`, marked }
      }
      const allowed = literals(issue.ast)
      const message = messageOf(issue.ast.annotations) ?? `must be ${allowed ?? "another value"}`
      return { path, message: allowed === undefined ? message : `${message}, got ${show(issue.input)}`, marked }
    }
    case "MissingKey":
      return { path, message: issue.annotations?.messageMissingKey ?? "is required", marked: false, missing: true }
    case "InvalidType":
      return {
        path,
        message: messageOf(issue.ast.annotations) ?? `must be ${TYPE_NAMES[issue.ast._tag] ?? "of another type"}`,
        marked: marked || isInvalidValue(issue.ast.annotations as Readonly<Record<PropertyKey, unknown>> | undefined)
      }
    case "InvalidValue":
      return { path, message: messageOf(issue.annotations) ?? "is not an allowed value", marked }
    case "UnexpectedKey":
      return { path, message: "is not allowed", marked }
    case "Forbidden":
    case "OneOf":
      return { path, message: "is not allowed", marked }
  }
}

/** The contract's error for a payload that does not match its schema. */
export const fromSchemaIssue = (issue: SchemaIssue.Issue): InvalidRequest | InvalidValue => {
  const failure = first(issue, [], false)
  if (failure.path.length === 0) return new InvalidRequest({ message: failure.message })
  // a path holds the client's own keys (a header's name): each is echoed clipped, as every input is
  const path = failure.path
    .map((segment, i) =>
      typeof segment === "number" ? `[${segment}]` : `${i === 0 ? "" : "."}${clip(String(segment))}`
    )
    .join("")
  const fields = { message: `${path} ${failure.message}`, details: [{ path, message: failure.message }] }
  return failure.marked ? new InvalidValue(fields) : new InvalidRequest(fields)
}

export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (error) =>
  error.kind === "Body" || error.kind === "ResponseHeaders"
    ? Effect.die(error)
    : // InvalidValue is declared by each endpoint with a marked field, where alone it can arise; the encoder finds it there.
      Effect.fail(fromSchemaIssue(error.cause.issue) as InvalidRequest)
)
