/** Bots: isbot's patterns decide, the library's bot extension or the token around the match names them. */
import { list } from "isbot"
import { UAParser } from "ua-parser-js"
import { isAIAssistant, isAICrawler } from "ua-parser-js/bot-detection"
import { Bots } from "ua-parser-js/extensions"
import { known, UNKNOWN } from "../parse/Names.ts"
import { type Listed, listedBot } from "./Listed.ts"
import { androidModel, isFeaturePhone } from "../parse/LongTail.ts"
import { libraryParser, reused } from "../parse/Reused.ts"
import { ieFeedPlatform, withoutAddOns } from "../parse/Tokens.ts"

export interface Bot {
  readonly isBot: boolean
  readonly name: string
  readonly version: string
  readonly category: string
}

// isbot's patterns that name a browser or an add-on ("Firefox/25.0 FirePHP/0.7.4"), not a bot
export const notBotPatterns: ReadonlyArray<string> = ["firephp", "chromeframe", "sogou"]

// isbot's patterns that judge by shape or a word ("radar") flag phones ("HTC Radar"): only without a browser's shape
export const shapePatterns: ReadonlyArray<string> =
  String.raw`\b\w+/1\.0;, java(?!;), discovery, \(\), \|, radar, tools,
  ^[<\(;], ^[^ ]{50,}$, proxy, ;\s\w+;$, parser, @[a-z][\w-]+\., ^\d+\b, 24x7, optimize, virtuoso,
  ^[\w \.\-\(?:\):%]+(?:/v?\d+(?:\.\d+)?(?:\.\d{1,10})*?)?(?:,|$)`.split(/,\s+/)
const patterns = list.filter((p) => !notBotPatterns.includes(p))
const botPattern = new RegExp(patterns.join("|"), "i")
const namePattern = new RegExp(patterns.filter((p) => !shapePatterns.includes(p)).join("|"), "i")

const platform = new RegExp(
  "\\((?:[^()]*[;( ])?(?:Windows|Macintosh|iPhone|iPad|iPod|Android|Linux|X11|CrOS|Symbian\\w*|BlackBerry|" +
    "Series ?[46]0|Bada|Tizen|KaiOS|webOS)\\b|\\biPhone_OS\\/|\\bAndroid [\\d.]+|Profile\\/MIDP|Configuration\\/CLDC|" +
    "UP\\.Browser|\\bMAUI\\b|\\bBREW\\b|\\bMRE\\/|\\bObigo|\\bNetFront"
)
const engine = new RegExp(
  "AppleWebKit\\/|Gecko\\/|Trident\\/|Presto\\/|KHTML|MSIE \\d|Opera|UP\\.Browser|Profile\\/MIDP|MAUI|BREW|MRE\\/|" +
    "NetFront|Obigo|Dalvik\\/"
)
const appId = /\b(?:com|net|org|jp|tv)\.[a-z][a-z0-9]*\.[A-Za-z][\w.]*/g
const browserShaped = (ua: string): boolean => platform.test(ua) && engine.test(ua)
const isHandset = (ua: string): boolean => isFeaturePhone(ua) || /\bWAP[-_ ]?Browser\b|_WAP\b|_MAUI\b/i.test(ua)
const withBots = reused(() => new UAParser(Bots))
const namedBrowser = (ua: string): boolean => /^(?!mozilla$)./i.test(libraryParser(ua).getBrowser().name ?? "")

/** The part of the string that makes it a bot (as isbot's `isbotMatch`), or null for a browser. */
export const botMatch = (ua: string): string | null => {
  if (ieFeedPlatform.test(ua)) return null
  const flagged = ua === "" ? undefined : ua.match(botPattern)?.[0]
  // an app's reverse-domain id names the app, not its maker's crawler ("com.google.GooglePlus/29676")
  const match = flagged === undefined ? undefined : ua.replace(appId, " ").match(botPattern)?.[0]
  if (match === undefined) return null
  // without a browser's shape: a bot's name, or neither a handset's words nor a browser the library knows
  if (!browserShaped(ua)) return namePattern.test(ua) || !(isHandset(ua) || namedBrowser(ua)) ? match : null
  // a device's model name is not a bot's ("XBot Junior"); a product token or a URL in its place is
  const model = androidModel(ua)
  const rest = model === undefined || /https?:|www\.|\.com\b|\//i.test(model) ? ua : ua.replace(model, "")
  // nor is Google's TV platform, or an add-on's token
  return namePattern.test(withoutAddOns(rest).replace(/\bGoogle ?TV\b/gi, "")) ? match : null
}

const parserBotTypes = new Set(["crawler", "fetcher", "cli", "library"])
const noBot: Bot = { isBot: false, name: UNKNOWN, version: UNKNOWN, category: UNKNOWN }

// isbot's catch-all flags any string without a browser's shape: then the match is the whole string, not a name
const notNames = /^(mozilla|applewebkit|safari|chrome|gecko|compatible|version|khtml|like|linux|windows|u)$/i

const tokenAround = (ua: string, match: string): { name: string; version: string } | undefined => {
  const needle = match.trim()
  const segment = ua
    .split(/[;(),]/)
    .find((part) => part.includes(needle))
    ?.trim()
  if (segment === undefined) return undefined
  const words = segment.split(/\s+/)
  const word = words.find((w) => w.includes(needle))
  if (word === undefined || (needle === ua.trim() && !word.includes("/"))) return undefined
  // "Googlebot/2.1" names itself; a bare keyword ("bot", "Spider") takes the words before it ("Catchpoint bot")
  const [head = "", version] = word.split("/")
  const name =
    version !== undefined || word !== needle
      ? head
      : words
          .slice(0, words.indexOf(word) + 1)
          .filter((w) => /^[A-Za-z][\w.!-]*$/.test(w))
          .join(" ")
  if (name === "" || name.length > 40 || notNames.test(name) || /[@:+]|^\W/.test(name)) return undefined
  return { name, version: version?.match(/^v?(\d[\w.-]*)/)?.[1] ?? UNKNOWN }
}

const monitors = /monitor|uptime|pingdom|statuscake|synthetic|site24x7|catchpoint|gomez|newrelic|datadog|checkly|ptst/i
const libraries = /https?-?client|http|request|urllib|okhttp|axios|java|perl|ruby|php|python|\bgo\b|node|wget|curl/i

/** What ua-parser-js's bot extension read of the string: a name and type where one of its patterns matched. */
interface Named {
  readonly name?: string | undefined
  readonly type?: string | undefined
}

/**
 * Whether ua-parser-js's AI checks could find an AI bot; each reads the string again, with its crawler or its fetcher
 * extension (together a fifth of a bot's parse). Both extensions are part of the bot extension `named` came from, and
 * every pattern there gives one of `parserBotTypes` (bots/Detect.test.ts): where none matched and the library's own
 * patterns named nothing, neither extension alone names the string.
 */
const mayBeAI = (named: Named): boolean =>
  named.name !== undefined || (named.type !== undefined && parserBotTypes.has(named.type))

const categoryOf = (ua: string, name: string, named: Named, listed: Listed | undefined): string => {
  const text = `${name} ${ua}`
  if (mayBeAI(named) && (isAICrawler(ua) || isAIAssistant(ua))) return "ai"
  if (/headless|phantomjs|puppeteer|playwright|selenium|webdriver/i.test(text)) return "headless"
  if (listed !== undefined) return listed.category
  if (monitors.test(text)) return "monitor"
  if (named.type !== undefined && parserBotTypes.has(named.type)) return named.type
  if (/crawl|spider|bot\b|bot[/_-]|slurp|archiv|seeker|scan/i.test(text)) return "crawler"
  if (/preview|fetch|externalhit|proxy|feed|rss|reader|expand/i.test(text)) return "fetcher"
  if (libraries.test(text)) return "library"
  return UNKNOWN
}

export const detectBot = (ua: string): Bot => {
  const match = botMatch(ua)
  if (match === null) return noBot
  const named = withBots(ua).getBrowser()
  const parserBot = named.type !== undefined && parserBotTypes.has(named.type)
  const fromToken = parserBot ? undefined : tokenAround(ua, match)
  const listed = listedBot(ua)
  // the token names the bot as its string does; a name of this project's list beats it (Nikto's token is "Check")
  const token = listed?.own === true ? undefined : fromToken?.name
  const name = parserBot ? known(named.name) : token || listed?.name || UNKNOWN
  const version = parserBot ? known(named.version) : (fromToken?.version ?? UNKNOWN)
  return { isBot: true, name, version, category: categoryOf(ua, name, named, listed) }
}
