/**
 * The product tokens of a string, by class, and their precedence in naming the browser. A browser family's own
 * tokens, and tokens that name no product at all (a system, a platform, a device, an add-on), never outrank one
 * another: only a product token outside those classes names the app or rebranded browser that really sent a
 * Chrome, Safari, Firefox or IE string (uap-core, Matomo and browscap label such strings so).
 */
import { UAParser } from "ua-parser-js"
import { Emails, InApps, MediaPlayers } from "ua-parser-js/extensions"
import { UNKNOWN } from "./Names.ts"

// Tokens a Chrome, Safari, Firefox, Edge or IE string is made of, old names included (Chrome for Android's "CrMo"),
// Google TV's "Large Screen Safari" (its "Mobile Safari"), Firefox's channels and code names after its own token
// ("Firefox/20.0 Aurora/20.0a2"), and the add-on FirePHP appends to the browser's own.
const ownTokens = new RegExp(
  "^(mozilla|applewebkit|khtml|gecko|like|chrome|chromium|crios|crmo|headlesschrome|safari|mobile|large|screen|" +
    "version|firefox|fxios|focus|aurora|fennec|minefield|bonecho|granparadiso|shiretoko|namoroka|lorentz|edg|edge|" +
    "edga|edgios|msie|trident|iemobile|vr|tv|firephp)$",
  "i"
)

// A distribution's name by its form: "...linux" ("Turbolinux/3.5.11", "OpenMandriva" is named in the platform list)
const systemName = /linux$/i

// Words of a system or a platform, outside the comment or in a string that lost its parentheses: OS and
// distribution names ("Gecko/2011 Red Hat/3.6 Firefox/3.6", "Linux Mint 16/Petra Firefox/25"), build tags,
// KaiOS, and the TV and cast platforms a browser runs on (HbbTV, Google TV, Chromecast's "CrKey").
const platformTokens = new RegExp(
  "^(android|linux|windows?|win(?:32|64)|mac|macintosh|darwin|x11|ubuntu|kubuntu|xubuntu|debian|fedora|mint|arch|" +
    "archlinux|centos|red|hat|suse|opensuse|gentoo|slackware|mandriva|joli|os|kaios|fuchsia|maemo|build|release|" +
    "openmandriva|system|model|devicetype|profile|configuration|hbbtv|fvc|ce-html|smarttv|smarttva|tizen|vizio|smartcast|googletv|google|crkey|u|wv|ppc|arm|x86_64)$",
  "i"
)

// Add-ons that append their token to the browser's own: toolbars (Google's "GTB7.1"), anonymisers and filtering
// proxies ("anonymized by Abelssoft", "ICAPoHTTPS", "UNTRUSTED/1.0"), Mail.ru's agent and Sputnik.
const addOnTokens = new RegExp(
  "^(gtb[\\d.]*|[\\w-]*toolbar[\\w-]*|[\\w-]*anonymi[sz]\\w*|browser-maulkorb|abelssoft|almisoft|icapohttps|untrusted|" +
    "masking-agent|mra|sputnik|aolbuild|bri|sv1)$",
  "i"
)

// A handset's own token, as Windows Mobile phones put it beside IE's: a maker and a model code
// ("HTC_P3600", "SAMSUNG-GT-i8000", "Palm750"), or a carrier's "Vodafone/1.0/HTC_v1510".
const deviceName = /^[A-Za-z][A-Za-z_-]*\d[\w-]*$/
const carrierToken = /^[A-Za-z-]+\/\d[\d.]*\/(?!Mozilla)\w/
const windowsMobile = /\bWindows CE\b|\bIEMobile\b|\bWindows Mobile\b|\bPPC;/

// Firefox's own builds under their code names: nightlies ("Minefield"), pre-releases ("BonEcho", "GranParadiso",
// "Shiretoko", "Namoroka", "Lorentz"), the Aurora channel and Fennec, Firefox for mobile.
export const firefoxBuild = /\b(?:Minefield|BonEcho|GranParadiso|Shiretoko|Namoroka|Lorentz|Aurora|Fennec)\/(\d[\w.]*)/

// IE's own names: Windows Phone's IE says "WebBrowser/8.1"
const ieItself = /^(?:(?:Internet|Pocket) Explorer|(?:Web)?Browser)$/i

/**
 * A shell around IE's engine names itself inside IE's comment ("MSIE 8.0; Windows NT 6.0; Acoo Browser 1.98",
 * "JuziBrowser", "Deepnet Explorer 1.5", "AOL 9.7", "QQBrowser/7.7.25715.400", "2345Explorer 3.5.0.12816"): a comment
 * item that is a browser's or explorer's name, or AOL's.
 */
export const ieShell = (ua: string): { name: string; version?: string | undefined } | undefined => {
  if (!/\bMSIE \d|\bTrident\//.test(ua)) return undefined
  const comment = /\(([^()]*)(?:\)|$)/.exec(ua)?.[1] ?? ""
  for (const item of comment.split(";")) {
    const [, name = "", version] =
      /^\s*([A-Za-z0-9][\w .-]*?(?:Browser|Explorer)|AOL)(?:[ /](\d[\w.]*))?\s*$/i.exec(item) ?? []
    if (name !== "" && !ieItself.test(name)) return { name, version }
  }
  // or as a product token ("QQBrowser/7.7.25715.400", "UBrowser/1.0.226.1028") where an item lost its separator
  const [, name, version] = /(?:^|[\s;])([A-Za-z0-9][\w-]*(?:Browser|Explorer))\/(\d[\w.]*)/i.exec(comment) ?? []
  return name === undefined || ieItself.test(name) ? undefined : { name, version }
}

/** Windows' feed platform, which fetches feeds for IE and sends IE's comment: IE, and not a bot. */
export const ieFeedPlatform = /^Windows-RSS-Platform\/[\d.]+ \(MSIE (\d[\d.]*)/

/** The string without its comments: innermost parentheses first, so nested ones go too, and one left open. */
const outsideComments = (ua: string): string => {
  let text = ua
  for (let i = 0; i < 4 && /\([^()]*\)/.test(text); i++) text = text.replace(/\([^()]*\)/g, " ")
  return text.replace(/\([^()]*$/, " ")
}

/** The string without the add-ons' tokens ("ICAPoHTTPS", "masking-agent"), whose words are not a bot's name. */
export const withoutAddOns = (ua: string): string =>
  ua.replace(/[^\s;()]+/g, (token) => (addOnTokens.test(token.split("/")[0] ?? "") ? " " : token))

/** Not a product that could have sent the string: the family's own token, a platform's, an add-on's or a device's. */
const isNotProduct = (name: string, token: string, handset: boolean): boolean =>
  ownTokens.test(name) ||
  platformTokens.test(name) ||
  systemName.test(name) ||
  addOnTokens.test(name) ||
  (handset && (deviceName.test(name) || carrierToken.test(token)))

/**
 * The product outside the parentheses that is none of the above, with its version: the app or rebranded browser
 * that sent a borrowed string. A bare word counts when it looks like a name ("Brave"), not a lower-case qualifier.
 */
export const foreignProduct = (ua: string): { name: string; version?: string } | undefined => {
  const text = outsideComments(ua)
  let bare: string | undefined
  const handset = isWindowsMobile(ua)
  for (const raw of text.split(/\s+/)) {
    const token = raw.replace(/^[[\]"';,]+|[[\]"';,]+$/g, "")
    const [name = "", version] = token.split("/")
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name) || !/[A-Za-z]{2}/.test(name) || isNotProduct(name, token, handset)) continue
    const numbered = /^v?(\d[\w.]*)/.exec(version ?? "")?.[1]
    if (version !== undefined && (numbered !== undefined || !handset)) return { name, version: numbered ?? UNKNOWN }
    // a string that lost its parentheses has its model's words in the open ("Android 7.1.1; Land Rover Explore")
    if (bare === undefined && /^[A-Z0-9]/.test(name) && name.length > 2 && ua.includes("(")) bare = name
  }
  return bare === undefined ? undefined : { name: bare }
}

const vocabulary = [Emails, InApps, MediaPlayers].flat()

interface Product {
  readonly name: string
  readonly version?: string | undefined
}

// the families' own names, which every borrowed string carries
const baseNames =
  /^(mozilla|ie|iemobile|edge|chrome|chrome webview|mobile chrome|safari|mobile safari|webkit|firefox)$/i

/** A Windows Mobile handset's string: the words beside IE's comment are the handset's, its carrier's, its screen's. */
export const isWindowsMobile = (ua: string): boolean => windowsMobile.test(ua)

/**
 * Where the browser is already recognised by a token of its own (Edge's "Edg/", IE Mobile's comment on a handset),
 * a later token outranks it only if it is recognised too, as a browser, email client, media player or in-app browser
 * of the library's vocabulary: in the string outside its comments ("UCBrowser/4.1", "/UC Browser7.8"), or as a token
 * ("QQBrowser/8.2", Teams on Edge's WebView2; the library knows its in-app browsers only beside the Electron shell
 * they run in, so the token is shown to it in that context). An unrecognised token ("Herring/96.1", a handset's
 * "HTC/X03HT") never outranks the recognised browser: undefined.
 */
export const recognisedProduct = (ua: string, product: Product): Product | undefined => {
  const named = new UAParser(outsideComments(ua), vocabulary).getBrowser()
  if (named.name !== undefined && !baseNames.test(named.name)) return { name: named.name, version: named.version }
  const token = new UAParser(`${product.name}/${product.version ?? "1"} Electron/1`, vocabulary).getBrowser()
  return token.name === undefined ? undefined : product
}

/**
 * A browser's string whose spaces were stripped ("Mozilla/5.0(WindowsNT10.0;Win64;x64)AppleWebKit/537.36(KHTML,
 * likeGecko)Chrome/138.0.0.0Safari/537.36"), with the spaces put back where a browser's grammar has them: after
 * the comment's separators, around the comments, inside "like Gecko", "Windows NT", "Mac OS X", and between a
 * version and the next product token. Other strings are returned as they are.
 */
export const restoreSpaces = (ua: string): string => {
  if (ua.includes(" ") || !/^Mozilla\/\d[^(]*\(/.test(ua)) return ua
  return ua
    .replace(/[;,](?=\S)/g, "$& ")
    .replace(/(\S)\(/g, "$1 (")
    .replace(/\)(?=[^\s;,)])/g, ") ")
    .replace(/WindowsNT ?/g, "Windows NT ")
    .replace(/MacOSX ?/g, " Mac OS X ")
    .replace(/CPU(iPhone)?OS/g, (_, phone) => (phone === undefined ? "CPU OS " : "CPU iPhone OS "))
    .replace(/Linux(?=x86|i[36]86|arm|aarch)/g, "Linux ")
    .replace(/(\d)like\b/g, "$1 like")
    .replace(/\blike(?=[A-Z ])/g, "like ")
    .replace(/ \)/g, ")")
    .replace(/ {2,}/g, " ")
    .replace(/([\w.])(?=(?:Mobile|Safari|Version|Chrome|Edg|Firefox|Gecko)\/)/g, "$1 ")
}
