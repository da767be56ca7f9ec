// What a union of forms allows, for a message that says what to send: its literals, its discriminator, which key.
import { SchemaAST } from "effect"
import { list } from "../Errors.ts"

/** What a union of literals allows, as `one of "a", "b"`; undefined for any other union. */
export const literals = (ast: SchemaAST.AST): string | undefined => {
  if (ast._tag === "Literal") return JSON.stringify(ast.literal)
  if (ast._tag !== "Union") return undefined
  const members = ast.types.map(literals)
  return members.every((m) => m !== undefined) ? `one of ${members.join(", ")}` : undefined
}

/** The key every member of a union of objects fixes to a literal (a discriminator such as `operation`). */
export const discriminator = (ast: SchemaAST.Union): { key: PropertyKey; allowed: string } | undefined => {
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
export const alternatives = (ast: SchemaAST.Union, input: unknown): string | undefined => {
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
