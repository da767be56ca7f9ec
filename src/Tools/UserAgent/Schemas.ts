/** The user-agent tool's request and response schemas; names are families, normalised as parse/Names.ts says. */
import { Schema } from "effect"
import { jsonBody } from "../../JsonBody.ts"
import { ClientHintHeaders } from "./ClientHints.ts"
import { BrowserFamily, DeviceFamily, DeviceType, OsFamily } from "./Families.ts"

const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"

export const MAX_USER_AGENT_LENGTH = 2048
/** The most user agents one request parses (`userAgents`) or generates (`count`). */
export const MAX_BATCH = 100

const userAgentProblem = (s: string): string | undefined =>
  s.trim().length === 0
    ? "must not be empty or only white space"
    : s.length > MAX_USER_AGENT_LENGTH && [...s].length > MAX_USER_AGENT_LENGTH
      ? `must be at most ${MAX_USER_AGENT_LENGTH} characters`
      : undefined

const UserAgentString = Schema.String.annotate({
  description: "The User-Agent header to parse, at most 2048 characters",
  examples: [IPHONE_SAFARI]
}).check(
  Schema.makeFilter(userAgentProblem, { toJsonSchema: () => ({ minLength: 1, maxLength: MAX_USER_AGENT_LENGTH }) })
)

// The description sits on the key: on the literal it would stand in for the value in error messages.
const operation = <const Op extends "parse" | "generate">(op: Op, description: string) =>
  Schema.Literal(op).annotateKey({ description })

// Given beside its other form, a field is refused (400) rather than ignored: the client meant one of the two.
const refused = (description: string, message: string) =>
  Schema.optionalKey(Schema.Never.annotate({ description, message }))
const notWith = (other: string) => refused(`Not with \`${other}\``, `cannot be sent with ${other}; send one`)

// The other operation's fields are taken and ignored (the contract), so a client can switch operation alone.
const ignored = (operation: "parse" | "generate") =>
  Schema.optionalKey(Schema.Unknown.annotate({ description: `Ignored by ${operation}` }))
const ignoredByParse = {
  browser: ignored("parse"),
  os: ignored("parse"),
  deviceType: ignored("parse"),
  seed: ignored("parse"),
  count: ignored("parse")
}

export const ParseRequest = Schema.Struct({
  operation: operation("parse", "Parse the given userAgent"),
  userAgent: UserAgentString,
  userAgents: notWith("userAgent"),
  headers: Schema.optionalKey(ClientHintHeaders),
  ...ignoredByParse
}).annotate({ identifier: "ParseRequest", title: "Parse a user agent" })

const UserAgentStrings = Schema.Array(UserAgentString)
  .annotate({
    description: `1 to ${MAX_BATCH} User-Agent strings, each at most 2048 characters; one token each`,
    message: `must be an array of 1 to ${MAX_BATCH} user-agent strings`
  })
  .check(
    Schema.isMinLength(1, { message: `must hold at least one user agent` }),
    Schema.isMaxLength(MAX_BATCH, {
      message: `must hold at most ${MAX_BATCH} user agents; send more in several requests`
    })
  )

export const ParseBatchRequest = Schema.Struct({
  operation: operation("parse", "Parse each of the given userAgents"),
  userAgents: UserAgentStrings,
  userAgent: notWith("userAgents"),
  headers: refused(
    "Client hints describe one browser: send them with `userAgent`",
    "describe one browser: send them with userAgent, not userAgents"
  ),
  ...ignoredByParse
}).annotate({ identifier: "ParseBatchRequest", title: "Parse up to 100 user agents" })

const COUNT_RULE = `must be an integer from 1 to ${MAX_BATCH}`

export const GenerateRequest = Schema.Struct({
  operation: operation("generate", "Generate a realistic, current user agent"),
  browser: Schema.optionalKey(BrowserFamily.annotate({ description: "Only this browser family" })),
  os: Schema.optionalKey(OsFamily.annotate({ description: "Only this OS family" })),
  deviceType: Schema.optionalKey(DeviceFamily.annotate({ description: "Only this device type" })),
  seed: Schema.optionalKey(
    Schema.Number.check(Schema.isInt({ message: "must be an integer" })).annotate({
      description: "The same seed and options give the same string (with `count`, the same list)",
      message: "must be an integer"
    })
  ),
  count: Schema.optionalKey(
    Schema.Number.annotate({ message: COUNT_RULE })
      .check(
        Schema.isInt({ message: COUNT_RULE }),
        Schema.isBetween({ minimum: 1, maximum: MAX_BATCH }, { message: COUNT_RULE })
      )
      .annotate({ description: `Generate this many (1 to ${MAX_BATCH}; one token each): \`data\` is then an array` })
  ),
  userAgent: ignored("generate"),
  userAgents: ignored("generate"),
  headers: ignored("generate")
}).annotate({ identifier: "GenerateRequest", title: "Generate a user agent" })

export const UserAgentRequest = Schema.Union([ParseRequest, ParseBatchRequest, GenerateRequest]).annotate({
  identifier: "UserAgentRequest",
  description:
    '`operation` "parse" with a `userAgent`, or with `userAgents` (up to 100, `data` then an array in the same ' +
    'order); or "generate" (which ignores `userAgent`), one or `count` of them'
})
export type UserAgentRequest = typeof UserAgentRequest.Type

/** The body: its JSON text parsed once. */
export const UserAgentBody = jsonBody(UserAgentRequest, {
  examples: [
    { operation: "parse", userAgent: WINDOWS_CHROME },
    { operation: "generate", browser: "Firefox", os: "Linux" },
    { operation: "parse", userAgents: [WINDOWS_CHROME, IPHONE_SAFARI] },
    { operation: "generate", count: 3, deviceType: "Mobile", seed: 7 }
  ]
})

const known = (description: string) =>
  Schema.String.annotate({ description: `${description}; "Unknown" when it cannot be determined` })

export const UserAgentInfo = Schema.Struct({
  userAgent: Schema.String.annotate({ description: "The parsed or generated string" }),
  browser: Schema.Struct({ name: known("Browser family or name"), version: known("Browser version") }),
  os: Schema.Struct({ name: known("OS family or name"), version: known("OS version") }),
  device: Schema.Struct({
    type: DeviceType,
    vendor: known("The brand that sells the device, from the string or its model code"),
    model: known(
      "The model code as the string names it (SM-A536B, iPhone, Pixel 7), never a placeholder such as Chrome's reduced K"
    ),
    name: known(
      "What people call the device, where a device database knows its model code: Galaxy A53 5G for SM-A536B, the " +
        "brand in front of a bare number or series (OnePlus 12 for CPH2581)"
    )
  }),
  cpu: Schema.Struct({ architecture: known("CPU architecture") }),
  engine: Schema.Struct({ name: known("Rendering engine"), version: known("Engine version") }),
  bot: Schema.Struct({
    isBot: Schema.Boolean,
    name: known("Bot name"),
    category: known("Bot category (crawler, fetcher, ai, monitor, ...)")
  })
}).annotate({ identifier: "UserAgentInfo" })
export type UserAgentInfo = typeof UserAgentInfo.Type

export const UserAgentResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Union([
    UserAgentInfo,
    Schema.Array(UserAgentInfo).annotate({
      description: "For `userAgents` or `count`: one result a string, in the order asked"
    })
  ])
}).annotate({
  identifier: "UserAgentResponse",
  examples: [
    {
      success: true,
      data: {
        userAgent: IPHONE_SAFARI,
        browser: { name: "Safari", version: "17.4" },
        os: { name: "iOS", version: "17.4" },
        device: { type: "Mobile", vendor: "Apple", model: "iPhone", name: "iPhone" },
        cpu: { architecture: "Unknown" },
        engine: { name: "WebKit", version: "605.1.15" },
        bot: { isBot: false, name: "Unknown", category: "Unknown" }
      }
    }
  ]
})
export type UserAgentResponse = typeof UserAgentResponse.Type
