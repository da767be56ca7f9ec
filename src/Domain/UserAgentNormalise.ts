/**
 * From ua-parser-js 2 results (and isbot) to the contract's `UserAgentInfo`: family names, device types, bot
 * flags, "Unknown" for anything undetermined. Pure and synchronous, so the service can cache it and the accuracy
 * script can measure it without a runtime. `rules: false` gives the plain contract mapping of the library's
 * answer, which the accuracy script reports as the baseline.
 */
import { isbotMatch } from "isbot"
import { UAParser } from "ua-parser-js"
import { isAIAssistant, isAICrawler } from "ua-parser-js/bot-detection"
import { Bots, Emails, InApps, MediaPlayers } from "ua-parser-js/extensions"
import type { DeviceType, UserAgentInfo } from "./UserAgent.ts"

/** The part of a ua-parser-js result we read; `IResult` fits it. */
export interface ParserResult {
  readonly browser: { readonly name?: string | undefined; readonly version?: string | undefined }
  readonly os: { readonly name?: string | undefined; readonly version?: string | undefined }
  readonly device: {
    readonly type?: string | undefined
    readonly vendor?: string | undefined
    readonly model?: string | undefined
  }
  readonly cpu: { readonly architecture?: string | undefined }
  readonly engine: { readonly name?: string | undefined; readonly version?: string | undefined }
}

export interface Bot {
  readonly isBot: boolean
  readonly name: string
  readonly version: string
  readonly category: string
}

const UNKNOWN = "Unknown"
const known = (value: string | undefined): string => (value === undefined || value.trim() === "" ? UNKNOWN : value)

const families = new Set(["Chrome", "Firefox", "Safari", "Edge", "IE"])
const browserFamilies: Record<string, string> = {
  chrome: "Chrome",
  "mobile chrome": "Chrome",
  "chrome webview": "Chrome",
  "chrome headless": "Chrome",
  chromium: "Chrome",
  firefox: "Firefox",
  "mobile firefox": "Firefox",
  "firefox focus": "Firefox",
  safari: "Safari",
  "mobile safari": "Safari",
  ie: "IE",
  iemobile: "IE"
}

/** The contract's browser family, or the parser's own name for anything outside the families. */
export const browserFamily = (name: string | undefined): string => {
  const raw = known(name)
  const lower = raw.toLowerCase()
  if (lower === "edge" || lower.startsWith("edge ")) return "Edge"
  return browserFamilies[lower] ?? raw
}

// Distributions ua-parser-js names; others it reports as "Linux" already.
const linuxDistributions = new Set([
  "arch",
  "centos",
  "debian",
  "deepin",
  "elementary os",
  "fedora",
  "gentoo",
  "ghostbsd-linux",
  "gnu",
  "joli",
  "knoppix",
  "kubuntu",
  "linpus",
  "linspire",
  "linux",
  "mageia",
  "mandriva",
  "manjaro",
  "mint",
  "pclinuxos",
  "raspbian",
  "redhat",
  "sabayon",
  "slackware",
  "suse",
  "ubuntu",
  "vectorlinux",
  "xubuntu",
  "zenwalk"
])

/** The contract's OS family, or the parser's own name ("Chrome OS", "HarmonyOS", ...). */
export const osFamily = (name: string | undefined): string => {
  const raw = known(name)
  const lower = raw.toLowerCase()
  if (lower === "windows" || lower === "windows rt") return "Windows"
  if (lower === "macos" || lower === "mac os") return "macOS"
  if (lower === "ios" || lower === "ipados") return "iOS"
  if (lower === "android" || lower === "android-x86" || lower === "chromecast android") return "Android"
  if (linuxDistributions.has(lower)) return "Linux"
  return raw
}

const deviceTypes: Record<string, DeviceType> = {
  mobile: "Mobile",
  tablet: "Tablet",
  smarttv: "SmartTV",
  console: "Console",
  wearable: "Wearable",
  xr: "XR",
  embedded: "Embedded"
}
const desktopOses = new Set(["Windows", "macOS", "Linux", "Chrome OS", "Chromium OS"])

/** The contract's device type: the parser's class, else Desktop for a desktop OS that is not a bot. */
export const deviceType = (type: string | undefined, os: string, isBot: boolean): DeviceType => {
  const mapped = type === undefined ? undefined : deviceTypes[type.toLowerCase()]
  if (mapped !== undefined) return mapped
  return desktopOses.has(os) && !isBot ? "Desktop" : "Unknown"
}

const parserBotTypes = new Set(["crawler", "fetcher", "cli", "library"])
const noBot: Bot = { isBot: false, name: UNKNOWN, version: UNKNOWN, category: UNKNOWN }

// isbot's catch-all pattern flags any string without a browser's shape ("asdf", "Mozilla/5.0"): a bot, but the
// match is then the whole string, not a name. A name is taken only from a product token around the match.
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

const categoryOf = (ua: string, name: string, parserType: string | undefined): string => {
  const text = `${name} ${ua}`
  if (isAICrawler(ua) || isAIAssistant(ua)) return "ai"
  if (/headless|phantomjs|puppeteer|playwright|selenium|webdriver/i.test(text)) return "headless"
  if (monitors.test(text)) return "monitor"
  if (parserType !== undefined && parserBotTypes.has(parserType)) return parserType
  if (/crawl|spider|bot\b|bot[/_-]|slurp|archiv|seeker|scan/i.test(text)) return "crawler"
  if (/preview|fetch|externalhit|proxy|feed|rss|reader|expand/i.test(text)) return "fetcher"
  if (libraries.test(text)) return "library"
  return UNKNOWN
}

/**
 * isbot's verdict, with ua-parser-js's bot extensions naming what they know (Googlebot, GPTBot, curl, ...);
 * otherwise the product token around isbot's match names it.
 */
export const detectBot = (ua: string): Bot => {
  const match = isbotMatch(ua)
  if (match === null) return noBot
  // a second parse with the bot extensions, only for strings isbot flags, so browsers pay nothing for it
  const named = new UAParser(ua, Bots).getBrowser()
  const parserBot = named.type !== undefined && parserBotTypes.has(named.type)
  const fromToken = parserBot ? undefined : tokenAround(ua, match)
  const name = parserBot ? known(named.name) : (fromToken?.name ?? UNKNOWN)
  const version = parserBot ? known(named.version) : (fromToken?.version ?? UNKNOWN)
  return { isBot: true, name, version, category: categoryOf(ua, name, named.type) }
}

// ---------------------------------------------------------------------------------------------------------------
// Accuracy rules: what the library leaves undecided or gets wrong, as general rules about how user agents are
// built. Each is measured by `bun run accuracy`; none names a single string.

/** Strings pasted from form-encoded logs carry "+" for every space; the parser needs the spaces back. */
const decodeSpaces = (ua: string): string => (!ua.includes(" ") && /\+\(|\)\+/.test(ua) ? ua.replaceAll("+", " ") : ua)

// Tokens a Chrome, Safari, Firefox, Edge or IE string is made of. Anything else outside the parentheses is the
// product that really sent the string: an app embedding the engine, or a rebranded browser (uap-core agrees).
const ownTokens = new RegExp(
  "^(mozilla|applewebkit|khtml|gecko|like|chrome|chromium|crios|headlesschrome|safari|mobile|version|firefox|fxios|" +
    "focus|edg|edge|edga|edgios|msie|trident|vr|tv|ubuntu|debian|fedora|mint|arch|centos)$",
  "i"
)

const foreignProduct = (ua: string): { name: string; version?: string } | undefined => {
  let text = ua
  // innermost parentheses first, so nested comments go too
  for (let i = 0; i < 4 && /\([^()]*\)/.test(text); i++) text = text.replace(/\([^()]*\)/g, " ")
  let bare: string | undefined
  for (const token of text.split(/\s+/)) {
    const [name = "", version] = token.replace(/^[[\]"']+|[[\]"']+$/g, "").split("/")
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name) || !/[A-Za-z]{2}/.test(name) || ownTokens.test(name)) continue
    if (version !== undefined) return { name, version: /^v?(\d[\w.]*)/.exec(version)?.[1] ?? UNKNOWN }
    // a bare word counts when it looks like a name ("Brave", "Sparrow"), not a lower-case qualifier
    if (bare === undefined && /^[A-Z0-9]/.test(name) && name.length > 2) bare = name
  }
  return bare === undefined ? undefined : { name: bare }
}

const appleOses = new Set(["iOS", "macOS"])

const leadingFamily = /^(Safari|Chrome|Firefox)\/?(\d[\d.]*)/
// An app's own string leads with its name, which may have spaces: "Rummy LITE iPad/2.3.0", "Airmail 1.0.6 (...)".
const leadingProduct = /^([A-Za-z][\w .!'&+-]{0,38}?)[ /]v?(\d[\w.]*)/

const refineBrowser = (ua: string, fields: ParserResult, bot: Bot): ParserResult["browser"] => {
  // a crawler that borrows a browser's string is the crawler; headless browsers stay the browser they are
  if (bot.isBot && bot.category !== "headless") return { name: bot.name, version: bot.version }
  const os = osFamily(fields.os.name)
  let browser = fields.browser
  // Android 4.4's WebView said "Version/4.0 Chrome/..." before it learnt "; wv": a Chrome WebView, not the old
  // Android Browser
  if (browser.name === "Android Browser" && /\bChrome\/\d/.test(ua)) {
    browser = { name: "Chrome WebView", version: /\bChrome\/([\d.]+)/.exec(ua)?.[1] }
  }
  const family = browserFamily(browser.name)
  if (family === UNKNOWN || family === "WebKit" || families.has(family)) {
    const leading = leadingFamily.exec(ua) ?? (family === UNKNOWN ? leadingProduct.exec(ua) : null)
    if (leading !== null && leading[1] !== "Mozilla") return { name: leading[1]?.trim(), version: leading[2] }
    const other = foreignProduct(ua)
    if (other !== undefined) return { name: other.name, version: other.version }
  }
  // iOS apps show pages in WKWebView, which is Safari's engine and says only "Mobile/..."
  if (browser.name === "WebKit" && os === "iOS") return { name: "Mobile Safari", version: undefined }
  if (family === "Safari") {
    // "AppleWebKit/537.8+": a WebKit nightly build, not a Safari release
    if (/AppleWebKit\/[\d.]+\+/.test(ua)) return { name: "WebKit Nightly", version: undefined }
    // WebKit browsers of BlackBerry, Symbian, webOS and the like end in "Safari/..." without being Safari
    if (!appleOses.has(os) && os !== "Windows") return { name: "WebKit", version: undefined }
  }
  return browser
}

// Apple's Intel and Apple-silicon model names, or an x86 CPU, in a CFNetwork/Darwin string: a Mac, not an iPhone.
const macDarwin = /\bDarwin\/(\d+)[^]*(\(i386\)|\(x86_64\)|i386\/|\b(MacBook|Macmini|iMac|MacPro|Mac\d+,\d))/
const darwinToMacOs = (darwin: number): string =>
  darwin <= 19 ? `10.${darwin - 4}` : darwin <= 24 ? String(darwin - 9) : String(darwin + 1)

/** Names of OSes in strings the library does not parse ("Mozilla/5.0 (Windows; U; en-US)", "(iOS; U)"). */
const osByName: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bWindows\b|Microsoft_Windows|\bWin(?:32|64|NT)\b/, "Windows"],
  [/\biOS\b|\biPhone\b|\biPad\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bMac OS X\b|\bMacintosh\b|\bmacOS\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"]
]

const refineOs = (ua: string, fields: ParserResult): ParserResult["os"] => {
  const { os } = fields
  const darwin = macDarwin.exec(ua)
  if (darwin?.[1] !== undefined) return { name: "macOS", version: darwinToMacOs(Number(darwin[1])) }
  if (/\btvOS\b/.test(ua)) return { name: "tvOS", version: /\btvOS ([\d.]+)/.exec(ua)?.[1] }
  if (/\bWP7\b|ZuneWP7|Windows Phone/.test(ua)) return { name: "Windows Phone", version: os.version }
  // Kindle e-readers run Amazon's own system (Fire tablets say Android and are handled as Android)
  const kindle = /\bKindle\/(\d[\d.]*)/.exec(ua)
  if (kindle !== null && !/\bAndroid\b/.test(ua)) return { name: "Kindle", version: kindle[1] }
  // browsers that exist on one OS only: Chrome, Firefox and Edge for iOS (also in an iPad's desktop mode), Amazon's
  // Silk on Fire OS, Meta's browser on Quest headsets; both of the latter are Android
  const family = osFamily(os.name)
  if (/\b(CriOS|FxiOS|EdgiOS|OPiOS)\//.test(ua))
    return { name: "iOS", version: family === "iOS" ? os.version : undefined }
  if (/\bSilk\/|OculusBrowser\//.test(ua) && (family === UNKNOWN || family === "Linux" || family === "macOS")) {
    return { name: "Android", version: undefined }
  }
  if (os.name !== undefined) return os
  const named = osByName.find(([pattern]) => pattern.test(ua))
  return named === undefined ? os : { name: named[1], version: undefined }
}

const refineDevice = (ua: string, fields: ParserResult, os: string, mobileHint?: boolean): ParserResult["device"] => {
  const { device } = fields
  const type = device.type
  if (mobileHint === true) return { ...device, type: "mobile" }
  if (os === "iOS" && /\b(iPhone|iPod)\b/.test(ua)) return { ...device, type: "mobile" }
  // iPads, also an iPad in desktop mode, whose iOS-only browser still gives it away
  if (os === "iOS" && (/\biPad\b/.test(ua) || /\bMacintosh\b/.test(ua))) {
    return { vendor: "Apple", model: "iPad", type: "tablet" }
  }
  if (os === "tvOS") return { vendor: "Apple", model: "Apple TV", type: "smarttv" }
  if (os === "Windows Phone") return { ...device, type: "mobile" }
  // Google's convention for Android browsers: "Mobile" on phones, left out on tablets (Firefox says "Tablet")
  const browserString = /AppleWebKit\/|Gecko\//.test(ua)
  if (os === "Android" && browserString && (type === undefined || type === "mobile" || type === "tablet")) {
    return { ...device, type: /\bMobile\b/.test(ua) && !/\bTablet\b/.test(ua) ? "mobile" : "tablet" }
  }
  return device
}

const refine = (ua: string, result: ParserResult, bot: Bot, mobileHint?: boolean): ParserResult => {
  const os = refineOs(ua, result)
  const withOs = { ...result, os }
  return {
    ...withOs,
    browser: refineBrowser(ua, withOs, bot),
    device: refineDevice(ua, withOs, osFamily(os.name), mobileHint)
  }
}

export interface NormaliseOptions {
  /** false: the contract's mapping of the library's answer only, without the accuracy rules below */
  readonly rules?: boolean
  /** sec-ch-ua-mobile "?1": a browser's own word that it is a phone outranks rules read from the string */
  readonly mobileHint?: boolean
}

export const normalise = (ua: string, result: ParserResult, options: NormaliseOptions = {}): UserAgentInfo => {
  const bot = detectBot(ua)
  const fields = options.rules === false ? result : refine(ua, result, bot, options.mobileHint)
  const os = osFamily(fields.os.name)
  return {
    userAgent: ua,
    browser: { name: browserFamily(fields.browser.name), version: known(fields.browser.version) },
    os: { name: os, version: known(fields.os.version) },
    device: {
      type: deviceType(fields.device.type, os, bot.isBot),
      vendor: known(fields.device.vendor),
      model: known(fields.device.model)
    },
    cpu: { architecture: known(fields.cpu.architecture) },
    engine: { name: known(fields.engine.name), version: known(fields.engine.version) },
    bot: { isBot: bot.isBot, name: bot.name, category: bot.category }
  }
}

const lowerCaseNames = (headers: Readonly<Record<string, string>>): Record<string, string> => {
  const lowered: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) lowered[name.toLowerCase()] = value
  return lowered
}

const appExtensions = [Emails, InApps, MediaPlayers].flat()

const isResult = (value: unknown): value is UAParser.IResult =>
  typeof value === "object" && value !== null && "browser" in value

/**
 * Parse a string, refined by User-Agent Client Hints when given. `new` matters: called as a function, UAParser
 * drops the headers.
 */
export const parseUserAgent = (
  ua: string,
  headers?: Readonly<Record<string, string>>,
  options: Omit<NormaliseOptions, "mobileHint"> = {}
): UserAgentInfo => {
  const rules = options.rules !== false
  const text = rules ? decodeSpaces(ua) : ua
  const given = headers === undefined ? undefined : lowerCaseNames(headers)
  const hinted = given !== undefined && Object.keys(given).some((name) => name.startsWith("sec-ch-ua"))
  const hints = hinted ? given : undefined
  // the library's extensions for email clients, in-app browsers and media players name what borrows IE's or
  // WebKit's string (Outlook, Teams, iTunes)
  const parser = rules ? new UAParser(text, appExtensions, hints) : new UAParser(text, hints)
  if (hints === undefined) return { ...normalise(text, parser.getResult(), options), userAgent: ua }
  const result = parser.getResult()
  // outside a browser withClientHints answers synchronously; its Promise branch is for navigator.userAgentData
  const refined = result.withClientHints()
  const mobileHint = hints["sec-ch-ua-mobile"]?.trim() === "?1"
  const info = normalise(text, isResult(refined) ? refined : result, mobileHint ? { ...options, mobileHint } : options)
  return { ...info, userAgent: ua }
}
