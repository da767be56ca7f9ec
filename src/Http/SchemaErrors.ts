// A payload its schema refuses as the contract's 400; a response its schema refuses is a bug: a defect, a 500.
import { Effect, SchemaAST, type SchemaIssue } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { RequestErrors } from "../Api.ts"
import { InvalidRequest, list } from "../Errors.ts"
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

// A union of object forms told apart by which key is given (each form requires a key every other form forbids): for
// an object that gives none of those keys, or more than one, which to give. A key present counts, even with null.
const alternatives = (ast: SchemaAST.Union, input: unknown): string | undefined => {
  if (typeof input !== "object" || input === null || ast.types.length < 2) return undefined
  const forms = ast.types.map((member) => (member._tag === "Objects" ? member.propertySignatures : undefined))
  const keys: Array<PropertyKey> = []
  for (const [index, properties] of forms.entries()) {
    const own = properties?.filter(
      (property) =>
        !SchemaAST.isOptional(property.type) &&
        forms.every(
          (other, i) =>
            i === index ||
            other?.some((o) => o.name === property.name && o.type._tag === "Never" && SchemaAST.isOptional(o.type))
        )
    )
    if (own?.length !== 1) return undefined
    keys.push(own[0]!.name)
  }
  const given = keys.filter((key) => Object.hasOwn(input, key))
  if (given.length === 1) return undefined
  const names = keys.map(String)
  return given.length === 0
    ? `Give ${list(names, "or")}`
    : `Give only one of ${list(names, "and")}, not ${keys.length === 2 ? "both" : "more"}`
}

interface Failure {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  /** A key the input lacks, rather than a value it holds. */
  readonly missing?: true
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
    case "InvalidValue":
      return { path, message: messageOf(issue.annotations) ?? "is not an allowed value" }
    case "UnexpectedKey":
    case "Forbidden":
    case "OneOf":
      return { path, message: "is not allowed" }
  }
}

export const fromSchemaIssue = (issue: SchemaIssue.Issue): InvalidRequest => {
  const failure = first(issue, [])
  if (failure.path.length === 0) return new InvalidRequest({ message: failure.message })
  // a path holds the client's own keys (a header's name): each is echoed clipped, as every input is
  const path = failure.path
    .map((segment, i) =>
      typeof segment === "number" ? `[${segment}]` : `${i === 0 ? "" : "."}${clip(String(segment))}`
    )
    .join("")
  return new InvalidRequest({ message: `${path} ${failure.message}`, details: [{ path, message: failure.message }] })
}

export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (error) =>
  error.kind === "Body" || error.kind === "ResponseHeaders"
    ? Effect.die(error)
    : Effect.fail(fromSchemaIssue(error.cause.issue))
)
