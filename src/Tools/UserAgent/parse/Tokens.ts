// Only a product token of none of these classes names the app that sent a borrowed browser's string.
import { UAParser } from "ua-parser-js"
import { Emails, InApps, MediaPlayers } from "ua-parser-js/extensions"
import { UNKNOWN } from "./Names.ts"
import { reused } from "./Reused.ts"

// the families' own tokens, old names, Firefox's channels ("Firefox/20.0 Aurora/20.0a2"), FirePHP's add-on; systems,
// distributions ("Gecko/2011 Red Hat/3.6 Firefox/3.6"), build tags and TV platforms, outside the comment
const notProducts = new RegExp(
  "^(mozilla|applewebkit|khtml|gecko|like|chrome|chromium|crios|crmo|headlesschrome|safari|mobile|large|screen|" +
    "version|firefox|fxios|focus|aurora|fennec|minefield|bonecho|granparadiso|shiretoko|namoroka|lorentz|edg|edge|" +
    "edga|edgios|msie|trident|iemobile|vr|tv|firephp|" +
    "android|linux|windows?|win(?:32|64)|mac|macintosh|darwin|x11|ubuntu|kubuntu|xubuntu|debian|fedora|mint|arch|" +
    "archlinux|centos|red|hat|suse|opensuse|gentoo|slackware|mandriva|joli|os|kaios|fuchsia|maemo|build|release|" +
    "openmandriva|system|model|devicetype|profile|configuration|hbbtv|fvc|ce-html|smarttv|smarttva|tizen|vizio|" +
    "smartcast|googletv|google|crkey|u|wv|ppc|arm|x86_64)$|linux$",
  "i"
)

// add-ons that append a token to the browser's: toolbars ("GTB7.1"), anonymisers and filtering proxies
const addOnTokens = new RegExp(
  "^(gtb[\\d.]*|[\\w-]*toolbar[\\w-]*|[\\w-]*anonymi[sz]\\w*|browser-maulkorb|abelssoft|almisoft|icapohttps|untrusted|" +
    "masking-agent|mra|sputnik|aolbuild|bri|sv1)$",
  "i"
)

// a Windows Mobile handset's token beside IE's ("HTC_P3600"), or its carrier's ("Vodafone/1.0/HTC_v1510")
const deviceName = /^[A-Za-z][A-Za-z_-]*\d[\w-]*$/
const carrierToken = /^[A-Za-z-]+\/\d[\d.]*\/(?!Mozilla)\w/
export const windowsMobile = /\bWindows CE\b|\bIEMobile\b|\bWindows Mobile\b|\bPPC;/

export const firefoxBuild = /\b(?:Minefield|BonEcho|GranParadiso|Shiretoko|Namoroka|Lorentz|Aurora|Fennec)\/(\d[\w.]*)/

// IE's own names: Windows Phone's IE says "WebBrowser/8.1"
const ieItself = /^(?:(?:Internet|Pocket) Explorer|(?:Web)?Browser)$/i

/** A shell around IE's engine, named in IE's comment ("MSIE 8.0; Windows NT 6.0; Acoo Browser 1.98", "AOL 9.7"). */
export const ieShell = (ua: string): Product | undefined => {
  if (!/\bMSIE \d|\bTrident\//.test(ua)) return undefined
  const comment = /\(([^()]*)(?:\)|$)/.exec(ua)?.[1] ?? ""
  for (const item of comment.split(";")) {
    const [, name = "", version] =
      /^\s*([A-Za-z0-9][\w .-]*?(?:Browser|Explorer)|AOL)(?:[ /](\d[\w.]*))?\s*$/i.exec(item) ?? []
    if (name !== "" && !ieItself.test(name)) return { name, version }
  }
  // or as a product token ("QQBrowser/7.7.25715.400") where an item lost its separator
  const [, name, version] = /(?:^|[\s;])([A-Za-z0-9][\w-]*(?:Browser|Explorer))\/(\d[\w.]*)/i.exec(comment) ?? []
  return name === undefined || ieItself.test(name) ? undefined : { name, version }
}

/** Windows' feed platform, which fetches feeds for IE and sends IE's comment: IE, and not a bot. */
export const ieFeedPlatform = /^Windows-RSS-Platform\/[\d.]+ \(MSIE (\d[\d.]*)/

const outsideComments = (ua: string): string => {
  let text = ua
  for (let i = 0; i < 4 && /\([^()]*\)/.test(text); i++) text = text.replace(/\([^()]*\)/g, " ")
  return text.replace(/\([^()]*$/, " ")
}

export const withoutAddOns = (ua: string): string =>
  ua.replace(/[^\s;()]+/g, (token) => (addOnTokens.test(token.split("/")[0] ?? "") ? " " : token))

const isNotProduct = (name: string, token: string, handset: boolean): boolean =>
  notProducts.test(name) || addOnTokens.test(name) || (handset && (deviceName.test(name) || carrierToken.test(token)))

/** The first product token outside the comments that is none of the above; a bare word if it looks like a name. */
export const foreignProduct = (ua: string): Product | undefined => {
  const text = outsideComments(ua)
  let bare: string | undefined
  const handset = windowsMobile.test(ua)
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

export const appExtensions = [Emails, InApps, MediaPlayers].flat()
/** The library with the apps' extensions, as a parse reads a string. */
export const appParser = reused(() => new UAParser(appExtensions))

type Product = { readonly name: string; readonly version?: string | undefined }

const baseNames =
  /^(mozilla|ie|iemobile|edge|chrome|chrome webview|mobile chrome|safari|mobile safari|webkit|firefox)$/i

/**
 * Where a token of its own names the browser (Edge's "Edg/"), another token outranks it only if the library knows it
 * too; in-app browsers it knows only beside the Electron shell they run in, so the token is shown to it there.
 */
export const recognisedProduct = (ua: string, product: Product): Product | undefined => {
  const named = appParser(outsideComments(ua)).getBrowser()
  if (named.name !== undefined && !baseNames.test(named.name)) return { name: named.name, version: named.version }
  const token = appParser(`${product.name}/${product.version ?? "1"} Electron/1`).getBrowser()
  return token.name === undefined ? undefined : product
}

/** A browser's string whose spaces were stripped ("Mozilla/5.0(WindowsNT10.0;Win64;x64)...") with them put back. */
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
