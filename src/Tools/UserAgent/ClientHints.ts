/** User-Agent Client Hints: the request field that carries them, and the hints a parse reads. */
import { Schema } from "effect"

// The longest value each hint may have (docs/API.md's table): every value its specification allows, with room for
// GREASE brands; sec-ch-ua-form-factors and any other `sec-ch-ua-*` name, which the parser may read too, 128.
const HINT_LENGTHS: ReadonlyArray<readonly [number, ReadonlyArray<string>]> = [
  [512, ["sec-ch-ua", "sec-ch-ua-full-version-list"]],
  [64, ["sec-ch-ua-model", "sec-ch-ua-platform", "sec-ch-ua-platform-version"]],
  [32, ["sec-ch-ua-arch"]],
  [16, ["sec-ch-ua-bitness"]],
  [8, ["sec-ch-ua-mobile", "sec-ch-ua-wow64"]]
]

const isHint = (name: string): boolean => name.toLowerCase().startsWith("sec-ch-ua")

// A hint is data the parser reads, so its length bounds the parse's work.
const hintTooLong = (headers: Readonly<Record<string, string>>) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!isHint(name)) continue
    const limit = HINT_LENGTHS.find(([, names]) => names.includes(name.toLowerCase()))?.[0] ?? 128
    if (value.length > limit) return { path: [name], issue: `must be at most ${limit} characters` }
  }
  return undefined
}

export const ClientHintHeaders = Schema.Record(
  Schema.String,
  Schema.String.annotate({ message: "must be a string, as a browser sends the header" })
)
  .annotate({
    description:
      "User-Agent Client Hints request headers (sec-ch-ua, sec-ch-ua-platform, sec-ch-ua-platform-version, " +
      "sec-ch-ua-mobile, sec-ch-ua-model, sec-ch-ua-arch, sec-ch-ua-bitness, sec-ch-ua-full-version-list, " +
      "sec-ch-ua-form-factors); names case-insensitive, values as a browser sends them, each at most 512 characters " +
      "(sec-ch-ua-model, -platform and -platform-version 64; docs/API.md lists every limit). They refine a frozen or " +
      'reduced string: Windows 11, full browser versions, the real model behind Android\'s "K".',
    examples: [{ "sec-ch-ua-platform": '"Windows"', "sec-ch-ua-platform-version": '"15.0.0"' }],
    message: "must be an object of header names to string values"
  })
  .check(Schema.makeFilter(hintTooLong))

/** Only client hints change a parse: other headers (or none) leave the string's own, cacheable answer. */
export const hasClientHints = (headers: Readonly<Record<string, string>> | undefined): boolean =>
  headers !== undefined && Object.keys(headers).some(isHint)

/** The hints by lower-case name, so no other name ("__proto__") is a key; a plain object for the library. */
export const clientHints = (headers: Readonly<Record<string, string>>): Record<string, string> | undefined => {
  let hints: Record<string, string> | undefined
  for (const [name, value] of Object.entries(headers)) {
    if (isHint(name) && typeof value === "string") (hints ??= {})[name.toLowerCase()] = value
  }
  return hints
}
