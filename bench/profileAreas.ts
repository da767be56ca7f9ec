/**
 * The area a profile sample falls in, for `bench/profile.ts`: from its stack (innermost frame first, each
 * `name path:line`), the innermost frame that is JavaScript decides — a project module by file, Effect by the part
 * of the framework it belongs to, the bench's own load generator as "harness". A native frame counts as JSON or as
 * Bun's web objects when it is one of those, and otherwise as its JavaScript caller.
 */
const webObjects =
  /^(Request|Response|Headers|AbortController|AbortSignal|addEventListener|removeEventListener|arrayBuffer|text|json|get|set|entries|has) \[native\]$/
const json = /^(stringify|parse) \[native\]$/

const frameworkAreas: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /effect(@[^/]*)?\/dist\/(internal\/schema\/|Schema|SchemaParser|SchemaIssue|SchemaAST|SchemaTransformation)/,
    "effect: Schema decode/encode"
  ],
  [/effect(@[^/]*)?\/dist\/http-api\//, "effect: HttpApi (router entry, middleware, security, error encoding)"],
  [/effect(@[^/]*)?\/dist\/http\/(HttpRouter|HttpMiddleware)/, "effect: HttpRouter (routing, router middleware)"],
  [/effect(@[^/]*)?\/dist\/http\//, "effect: HTTP (web handler, request/response, headers)"],
  [/effect(@[^/]*)?\/dist\/(Logger|internal\/logger|References)/, "effect: Logger"],
  [/effect(@[^/]*)?\/dist\/(Metric|internal\/metric)/, "effect: Metric"],
  [/effect(@[^/]*)?\/dist\//, "effect: runtime (fibers, run loop, Context)"]
]

const whereOf = (frame: string) => frame.slice(frame.lastIndexOf(" ") + 1)
const isNative = (frame: string) => frame.endsWith("[native]")
const isScript = (frame: string) => !isNative(frame) && /:\d+$/.test(frame)

const areaOfFrame = (frame: string): string => {
  const where = whereOf(frame)
  if (/^bench\//.test(where) || where.includes("/bench/")) return "harness (load generator, not the service)"
  const project = where.match(/^(src\/[^:]+)/)
  if (project !== null) return `project: ${project[1]}`
  for (const [pattern, area] of frameworkAreas) if (pattern.test(where)) return area
  if (where.startsWith("node:") || where.startsWith("internal:")) return "Bun's node: modules"
  return `other: ${where.replace(/:\d+$/, "")}`
}

export const areaOf = (stack: ReadonlyArray<string>): string => {
  const innermost = stack[0] ?? "(root)"
  const caller = stack.find(isScript)
  if (caller === undefined) return "outside JavaScript (GC, idle, native)"
  if (!isNative(innermost)) return areaOfFrame(innermost)
  const callerArea = areaOfFrame(caller)
  if (callerArea.startsWith("harness")) return callerArea
  if (json.test(innermost)) return "JSON.parse / JSON.stringify"
  if (webObjects.test(innermost)) return "Bun web objects (Request, Response, Headers, AbortSignal)"
  return callerArea
}
