// A JSON payload's fields: every property any member of its encoded schema names; undefined where it takes any.
import { SchemaAST } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"

const collect = (ast: SchemaAST.AST, into: Set<string>): boolean => {
  switch (ast._tag) {
    case "Objects":
      if (ast.indexSignatures.length > 0) return false
      for (const property of ast.propertySignatures) into.add(String(property.name))
      return true
    case "Union":
      return ast.types.every((member) => collect(member, into))
    case "Suspend":
      return collect(ast.thunk(), into)
    default:
      return false
  }
}

const cache = new WeakMap<HttpApiEndpoint.Top, ReadonlySet<string> | undefined>()

export const fieldsOf = (endpoint: HttpApiEndpoint.Top): ReadonlySet<string> | undefined => {
  if (cache.has(endpoint)) return cache.get(endpoint)
  const fields = new Set<string>()
  const json = endpoint.payload.get("application/json")
  const known = json !== undefined && json.schemas.every((schema) => collect(SchemaAST.toEncoded(schema.ast), fields))
  const result = known ? fields : undefined
  cache.set(endpoint, result)
  return result
}
