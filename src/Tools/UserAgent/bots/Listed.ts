// Monitors and scanners by name: Matomo's bot list (node-device-detector's copy) where it names them, a few more here.
import { Schema } from "effect"
import { devicePattern, WINDOW } from "../device/Patterns.ts"

type Category = "monitor" | "scanner"

const CATEGORY_OF: Readonly<Record<string, Category>> = {
  "Site Monitor": "monitor",
  "Network Monitor": "monitor",
  "Security Checker": "scanner",
  "Security search bot": "scanner"
}

// common in access logs, named by neither Matomo's list nor ua-parser-js (node-device-detector 2.2.7): the platforms'
// health checks, and scanners that announce themselves; [text in the string, the bot's name]
const NOT_LISTED: ReadonlyArray<readonly [string, string, Category]> = [
  ["kube-probe/", "kube-probe", "monitor"],
  ["GoogleHC/", "GoogleHC", "monitor"],
  ["Consul Health Check", "Consul Health Check", "monitor"],
  ["Amazon-Route53-Health-Check-Service", "Amazon Route 53 Health Check", "monitor"],
  ["masscan/", "masscan", "scanner"],
  ["projectdiscovery/nuclei", "Nuclei", "scanner"],
  ["Nikto/", "Nikto", "scanner"],
  ["sqlmap/", "sqlmap", "scanner"],
  ["WPScan", "WPScan", "scanner"]
]

// `/` is left to devicePattern, which escapes it
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The fields of Matomo's list read here: 21 of its 838 bots (node-device-detector 2.2.7) have no category. */
const MatomoBots = Schema.Array(
  Schema.Struct({ regex: Schema.String, name: Schema.String, category: Schema.optionalKey(Schema.String) })
)

// Required on the first bot asked about, not imported: evaluating the package's 838 entries cost every start that
// parses no bot (a server's, a one-line `parse`'s) 1-2 ms of CPU and 0.6-0.9 MB of RSS (bench/README.md, "Start").
const matomoBots = () => Schema.decodeUnknownSync(MatomoBots)(require("node-device-detector/regexes/bots.js"))

const build = () => {
  const entries = [
    ...NOT_LISTED.map(([text, name, category]) => ({ source: escape(text), name, category, own: true })),
    ...matomoBots().flatMap((bot) => {
      const category = bot.category === undefined ? undefined : CATEGORY_OF[bot.category]
      // a name made from the match ("$1") is left to the token around it
      return category === undefined
        ? []
        : [{ source: bot.regex, name: bot.name.includes("$") ? "" : bot.name, category, own: false }]
    })
  ]
  // one pass finds whether any matches; the entry is looked for only then
  return { entries, any: devicePattern(entries.map((entry) => entry.source).join("|")) }
}

// built on the first string asked about, not at import: a start that parses nothing does not pay for it
let built: ReturnType<typeof build> | undefined
const patterns = () => {
  if (built === undefined) built = build()
  return built
}

export interface Listed {
  readonly category: Category
  readonly name: string
  /** Named here, not by Matomo's list. */
  readonly own: boolean
}

/** The category ("monitor": uptime monitors, load balancers' and orchestrators' health checks; "scanner") and name. */
export const listedBot = (ua: string): Listed | undefined => {
  // Matomo's patterns start a token and may scan on: only the first WINDOW characters are read, as for devices
  const head = ua.slice(0, WINDOW)
  const { any, entries } = patterns()
  if (!any.test(head)) return undefined
  return entries.find((entry) => devicePattern(entry.source).test(head))
}
