// The OpenAPI document finished where schemas cannot say it: absent fields, sendable examples, each answer's headers.
import * as RateLimitHeaders from "./RateLimit/Headers.ts"

type Node = { [key: string]: unknown }

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value)
const node = (value: unknown): Node => (isNode(value) ? value : {})
const children = (value: unknown): Array<Node> => Object.values(node(value)).filter(isNode)
const members = (schema: Node): Array<Node> =>
  [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? list.filter(isNode) : []))

const REF = "#/components/schemas/"

/** `{ "not": {} }`, the JSON Schema of a `Never` field. */
const isNothing = (schema: unknown): boolean =>
  isNode(schema) && Object.keys(schema).length === 1 && isNode(schema.not) && Object.keys(schema.not).length === 0

/** A field that must be absent (only request schemas have one) as `false`, which generators read as "no such field". */
const asRequest = (schema: Node): void => {
  const properties = node(schema.properties)
  for (const name in properties) if (isNothing(properties[name])) properties[name] = false
  for (const member of members(schema)) if (member.$ref === undefined) asRequest(member)
}

const text = { type: "string" }
const HEADERS: Record<string, object> = {
  "X-Request-Id": { description: "The request's id: the client's own if sane, else a new one", schema: text },
  ...RateLimitHeaders.DOCUMENTED,
  "WWW-Authenticate": { description: 'The scheme to use: `Bearer realm="tools-api"`', schema: text },
  Allow: { description: "The methods the path has", schema: text }
}
const component = (header: string) => header.replace(/-/g, "")

const headersOf = (keyed: boolean, status: string): Array<string> => {
  const names = ["X-Request-Id"]
  // a known caller's answers, 429 included, say where it stands; a 401 or an address's 429 has no key to count
  if (keyed && !["401", "404", "405", "503"].includes(status)) names.push(...RateLimitHeaders.NAMES)
  if (status === "429") names.push(RateLimitHeaders.RETRY_AFTER)
  if (status === "401") names.push("WWW-Authenticate")
  if (status === "405") names.push("Allow")
  return names
}

const requestExamples = (schemas: Node, schema: Node): Node | undefined => {
  const name =
    typeof schema.$ref === "string" && schema.$ref.startsWith(REF) ? schema.$ref.slice(REF.length) : undefined
  const examples = name === undefined ? undefined : node(schemas[name]).examples
  if (!Array.isArray(examples) || examples.length === 0) return undefined
  const named: Record<string, { value: Node }> = {}
  for (const value of examples.filter(isNode)) {
    const base = String(value.operation ?? Object.keys(value)[0])
    // a second form of one operation is named by the first field the first form lacks: "parse userAgents"
    const first = named[base]?.value
    named[first === undefined ? base : `${base} ${Object.keys(value).find((key) => !(key in first))}`] = { value }
  }
  return named
}

// A body is decoded from its JSON text (JsonBody.ts), which the generator documents as a string component holding
// the object: the operation refers to the object itself, and the string component goes.
const bodyAsObject = (schemas: Node, media: Node): void => {
  const ref = node(media.schema).$ref
  const name = typeof ref === "string" && ref.startsWith(REF) ? ref.slice(REF.length) : ""
  const text = node(schemas[name])
  const [object] = Array.isArray(text.allOf) ? text.allOf : []
  if (text.type !== "string" || !isNode(object)) return
  media.schema = object
  delete schemas[name]
}

export const describeAsServed = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = node(spec.components)
  const schemas = node(components.schemas)
  for (const schema of children(schemas)) asRequest(schema)
  components.headers = Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [component(name), header]))
  // as the IANA registry spells it: Scalar's "Test Request" only offers a token field for a lower-case `bearer`
  for (const scheme of children(components.securitySchemes)) {
    if (typeof scheme.scheme === "string") scheme.scheme = scheme.scheme.toLowerCase()
  }
  node(spec.info).contact = { name: "Tools API", url: "https://www.gnu.org/licenses/agpl-3.0.html#section13" }
  for (const operation of children(spec.paths).flatMap(children)) {
    for (const media of children(node(operation.requestBody).content)) {
      bodyAsObject(schemas, media)
      const examples = requestExamples(schemas, node(media.schema))
      if (examples !== undefined) media.examples = examples
    }
    const keyed = Array.isArray(operation.security) && operation.security.length > 0
    const responses = node(operation.responses)
    for (const status in responses) {
      node(responses[status]).headers = Object.fromEntries(
        headersOf(keyed, status).map((name) => [name, { $ref: `#/components/headers/${component(name)}` }])
      )
    }
  }
  return spec
}
