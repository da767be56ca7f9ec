/**
 * The OpenAPI document as the service serves it, finished where the schemas cannot say it themselves: a field that
 * must be absent as JSON Schema's `false`, request examples a client can send as they are, and the response headers
 * each answer carries. Request bodies keep the generated `additionalProperties: false`: the service refuses a field
 * an endpoint does not define.
 */
import * as RateLimitHeaders from "./RateLimit/Headers.ts"

type Json = Record<string, any>

const REF = "#/components/schemas/"

const operations = (spec: Json): Array<[path: string, operation: Json]> =>
  Object.entries<Json>(spec.paths ?? {}).flatMap(([path, item]) =>
    Object.values<Json>(item).map((operation) => [path, operation] as [string, Json])
  )

/** The component schemas a request body refers to, with the members of a union among them. */
const requestSchemas = (spec: Json): Set<string> => {
  const names = new Set<string>()
  const visit = (schema: Json | undefined) => {
    if (typeof schema?.$ref === "string" && schema.$ref.startsWith(REF)) {
      const name = schema.$ref.slice(REF.length)
      if (names.has(name)) return
      names.add(name)
      visit(spec.components?.schemas?.[name])
    }
    for (const member of [...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])]) visit(member)
  }
  for (const [, operation] of operations(spec)) {
    for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) visit(media.schema)
  }
  return names
}

/** `{ "not": {} }`, the JSON Schema of a `Never` field. */
const isNothing = (schema: Json): boolean =>
  Object.keys(schema).length === 1 && typeof schema.not === "object" && Object.keys(schema.not).length === 0

/**
 * A request schema as the service reads it: a field that must be absent as JSON Schema's `false`, which generators
 * read as "no such field"; the same for the forms of a union written inline.
 */
const asRequest = (schema: Json): void => {
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    if (isNothing(property)) schema.properties[name] = false
  }
  for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    if (member.$ref === undefined) asRequest(member)
}

const text = { type: "string" }
/** Each response header by its name; its component in the document is the name without dashes. */
const HEADERS: Record<string, Json> = {
  "X-Request-Id": { description: "The request's id: the client's own if sane, else a new one", schema: text },
  ...RateLimitHeaders.DOCUMENTED,
  "WWW-Authenticate": { description: 'The scheme to use: `Bearer realm="tools-api"`', schema: text },
  Allow: { description: "The methods the path has", schema: text }
}
const component = (header: string) => header.replace(/-/g, "")

/** The headers a response of this status on this path carries. */
const headersOf = (path: string, status: string): Array<string> => {
  const names = ["X-Request-Id"]
  // a known caller's /v1 answers, 429 included, say where it stands; a 401 or an address's 429 has no key to count
  if (path.startsWith("/v1/") && !["401", "404", "405", "503"].includes(status)) names.push(...RateLimitHeaders.NAMES)
  if (status === "429") names.push(RateLimitHeaders.RETRY_AFTER)
  if (status === "401") names.push("WWW-Authenticate")
  if (status === "405") names.push("Allow")
  return names
}

/** A request body's examples, named by what they do, from its schema's own `examples`. */
const requestExamples = (spec: Json, schema: Json | undefined): Json | undefined => {
  const name = typeof schema?.$ref === "string" ? schema.$ref.slice(REF.length) : undefined
  const examples: Array<Json> | undefined = name === undefined ? undefined : spec.components?.schemas?.[name]?.examples
  if (examples === undefined || examples.length === 0) return undefined
  return Object.fromEntries(examples.map((value) => [value.operation ?? Object.keys(value)[0], { value }]))
}

export const describeAsServed = (spec: Json): Json => {
  const schemas = spec.components?.schemas ?? {}
  for (const name of requestSchemas(spec)) if (schemas[name] !== undefined) asRequest(schemas[name])
  spec.components.headers = Object.fromEntries(
    Object.entries(HEADERS).map(([name, header]) => [component(name), header])
  )
  // as the IANA registry spells it: Scalar's "Test Request" only offers a token field for a lower-case `bearer`
  for (const scheme of Object.values<Json>(spec.components.securitySchemes ?? {})) {
    if (typeof scheme.scheme === "string") scheme.scheme = scheme.scheme.toLowerCase()
  }
  spec.info.contact = { name: "Tools API", url: "https://www.gnu.org/licenses/agpl-3.0.html#section13" }
  for (const [path, operation] of operations(spec)) {
    for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) {
      const examples = requestExamples(spec, media.schema)
      if (examples !== undefined) media.examples = examples
    }
    for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
      response.headers = Object.fromEntries(
        headersOf(path, status).map((name) => [name, { $ref: `#/components/headers/${component(name)}` }])
      )
    }
  }
  return spec
}
