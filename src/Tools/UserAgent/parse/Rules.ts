// Where the library is undecided or wrong: general rules of how user agents are built (`bun run accuracy`).
import type { Bot } from "../bots/Detect.ts"
import { isBrowserFamily } from "../Families.ts"
import { type DeviceFields, refineDevice } from "./DeviceClass.ts"
import { androidUnnamed, puffinPlatform } from "./LongTail.ts"
import { browserFamily, osFamily, UNKNOWN } from "./Names.ts"
import * as tokens from "./Tokens.ts"

export interface ParserResult {
  readonly browser: { readonly name?: string | undefined; readonly version?: string | undefined }
  readonly os: { readonly name?: string | undefined; readonly version?: string | undefined }
  readonly device: DeviceFields
  readonly cpu: { readonly architecture?: string | undefined }
  readonly engine: { readonly name?: string | undefined; readonly version?: string | undefined }
}

/** Strings from form-encoded logs carry "+" for every space, others lost them: the parser needs them back. */
export const decodeSpaces = (ua: string): string =>
  !ua.includes(" ") && /\+\(|\)\+/.test(ua) ? ua.replaceAll("+", " ") : tokens.restoreSpaces(ua)

// at most 40 word characters and spaces after "archos", over which the library's Archos pattern backtracks in three
// nested runs (scripts/README.md); Archos's own strings carry far shorter ones
export const forLibrary = (ua: string): string => ua.replace(/archos[\w ]{41,}/gi, (run) => run.slice(0, 46))

const leadingFamily = /^(Safari|Chrome|Firefox|MobileSafari)\/?(\d[\d.]*)/
const leadingProduct = /^([A-Za-z][\w .!'&+-]{0,38}?)[ /]v?(\d[\w.]*)/

const refineBrowser = (ua: string, library: ParserResult["browser"], os: string, bot: Bot): ParserResult["browser"] => {
  // a crawler that borrows a browser's string is the crawler; headless browsers stay the browser they are
  if (bot.isBot && bot.category !== "headless") return { name: bot.name, version: bot.version }
  let browser = library
  // Android 4.4's WebView said "Version/4.0 Chrome/30.0.0.0" before "; wv"; stock browsers give a real Chrome build
  if (browser.name === "Android Browser" && /\bVersion\/4\.0 Chrome\/\d|\bChrome\/\d+\.0\.0\.0\b|; wv\)/.test(ua)) {
    browser = { name: "Chrome WebView", version: /\bChrome\/([\d.]+)/.exec(ua)?.[1] }
  }
  // IE Mobile 11 on Windows Phone 8.1 adds "like iPhone OS 7_0_3 Mac OS X ... Mobile Safari" for sites' sake
  if (os === "Windows Phone" && /\bIEMobile\/\d/.test(ua) && browserFamily(browser.name) !== "IE") {
    browser = { name: "IEMobile", version: /\bIEMobile\/([\d.]+)/.exec(ua)?.[1] }
  }
  const feeds = tokens.ieFeedPlatform.exec(ua)
  if (feeds !== null) return { name: "IE", version: feeds[1] }
  const family = browserFamily(browser.name)
  const firefox = tokens.firefoxBuild.exec(ua)
  if (firefox !== null && (family === UNKNOWN || family === "Mozilla" || family === "Fennec"))
    return { name: "Firefox", version: firefox[1] }
  if (family === UNKNOWN || family === "WebKit" || isBrowserFamily(family)) {
    const leading = leadingFamily.exec(ua) ?? (family === UNKNOWN ? leadingProduct.exec(ua) : null)
    if (leading !== null && leading[1] !== "Mozilla") {
      return { name: leading[1] === "MobileSafari" ? "Mobile Safari" : leading[1]?.trim(), version: leading[2] }
    }
    const shell = family === "IE" ? tokens.ieShell(ua) : undefined
    if (shell !== undefined) return shell
    const other = tokens.foreignProduct(ua)
    const recognisedOnly = family === "Edge" || (family === "IE" && tokens.windowsMobile.test(ua))
    const named = other !== undefined && recognisedOnly ? tokens.recognisedProduct(ua, other) : other
    if (named !== undefined) return named
  }
  // Trident is IE's engine alone, also where odd comment items keep the library from naming IE
  const trident = family === UNKNOWN ? /\bTrident\/(\d+)\./.exec(ua) : null
  if (trident !== null)
    return { name: "IE", version: /\brv: ?(\d+\.\d+)/.exec(ua)?.[1] ?? `${Number(trident[1]) + 4}.0` }
  // iOS apps show pages in WKWebView, which is Safari's engine and says only "Mobile/..."
  if (browser.name === "WebKit" && os === "iOS") return { name: "Mobile Safari", version: undefined }
  if (family === "Safari") {
    // "AppleWebKit/537.8+" is a WebKit nightly, except the first iPhone's "AppleWebKit/420+"
    if (/AppleWebKit\/[\d.]+\+/.test(ua) && os !== "iOS") return { name: "WebKit Nightly", version: undefined }
    // WebKit browsers of BlackBerry, Symbian, webOS and the like end in "Safari/..." without being Safari
    if (os !== "iOS" && os !== "macOS" && os !== "Windows") return { name: "WebKit", version: undefined }
  }
  return browser
}

// a Mac's model name or an x86 CPU after "Darwin/": a Mac, not an iPhone (two searches, so no backtracking)
const darwinVersion = /\bDarwin\/(\d+)/
const macHardware =
  /\(i386\)|\(x86_64\)|i386\/|\b(?:MacBook|Macmini|iMac|MacPro|Mac\d+,\d|Power(?:%20| )?Mac|PowerBook)/g
const macDarwin = (ua: string): string | undefined => {
  const darwin = darwinVersion.exec(ua)
  if (darwin === null) return undefined
  macHardware.lastIndex = darwin.index + darwin[0].length
  return macHardware.test(ua) ? darwin[1] : undefined
}
const darwinToMacOs = (darwin: number): string =>
  darwin <= 19 ? `10.${darwin - 4}` : darwin <= 24 ? String(darwin - 9) : String(darwin + 1)

/** Names of OSes in strings the library does not parse ("Mozilla/5.0 (Windows; U; en-US)", "(iOS; U)"). */
const osByName: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bWindows\b[^)]*; PPC\b|\bWindows CE\b/, "Windows Mobile"],
  [/\bWindows\b|Microsoft_Windows|\bWin(?:32|64|NT)\b/, "Windows"],
  [/\biOS\b|\biOS ?\d|\b(?:iPhone|iPad|iPod)(?:\b|_|\d)/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bMac OS X\b|\bMacintosh\b|\bmacOS\b|\bMac OS\/|\bOSX\/|\bos=Mac\b|\b(?:MacBook|iMac|Macmini)/, "macOS"],
  [/\bIRIX(?:64)?\b/, "IRIX"],
  [/\bOSF1\b/, "OSF1"],
  [/\bLinux\b|\bX11\b|\bRed Hat\b/, "Linux"]
]

const earlyIos = /\((?:iPhone|iPad|iPod)\b|\bCPU (?:iPhone )?(?:OS \S+ )?like Mac OS X/

const refineOs = (ua: string, os: ParserResult["os"]): ParserResult["os"] => {
  const family = osFamily(os.name)
  const darwin = macDarwin(ua)
  if (darwin !== undefined) return { name: "macOS", version: darwinToMacOs(Number(darwin)) }
  // the first iPhones and iPads said "CPU like Mac OS X", "CPU OS 3_2" or "iPhone OS (null)": iOS, not a Mac
  if (family === "macOS" && earlyIos.test(ua)) {
    return { name: "iOS", version: /\bOS (\d+(?:_\d+)*) like/.exec(ua)?.[1]?.replaceAll("_", ".") }
  }
  if (/\btvOS\b/.test(ua)) return { name: "tvOS", version: /\btvOS ([\d.]+)/.exec(ua)?.[1] }
  if (/\bWP7\b|ZuneWP7|Windows Phone|\bWPDesktop\b/.test(ua)) return { name: "Windows Phone", version: os.version }
  const wds = /\(Windows; U; wds (\d[\d.]*)/.exec(ua)
  if (wds !== null) return { name: "Windows Phone", version: wds[1] }
  const puffin = puffinPlatform(ua)
  if (puffin !== undefined) return { name: puffin.os, version: undefined }
  // Kindle e-readers run Amazon's own system (Fire tablets say Android)
  const kindle = /\bKindle\/(\d[\d.]*)/.exec(ua)
  if (kindle !== null && !/\bAndroid\b/.test(ua)) return { name: "Kindle", version: kindle[1] }
  // browsers of one OS only: Chrome, Firefox and Edge for iOS; Silk, Quest's browser and "Aphone" on Android
  if (/\b(CriOS|FxiOS|EdgiOS|OPiOS)\//.test(ua))
    return { name: "iOS", version: family === "iOS" ? os.version : undefined }
  const desktopLike = family === UNKNOWN || family === "Linux" || family === "macOS"
  if ((/\bSilk\/|OculusBrowser\//.test(ua) && desktopLike) || /\bAphone Browser\b/.test(ua)) {
    return { name: "Android", version: undefined }
  }
  // the library reads Opera Mini's Java edition as the iOS one; a J2ME phone runs Java ME
  if (family === "iOS" && /\bJ2ME\//.test(ua) && !/\b(iPhone|iPad|iPod)/.test(ua)) return { name: "Java ME" }
  if ((family === UNKNOWN || family === "Linux") && androidUnnamed.test(ua)) {
    return { name: "Android", version: /\b(?:Adr|Android|Andr0id|diordnA|U;) (\d[\d.]*)/.exec(ua)?.[1] }
  }
  if (os.name !== undefined) return os
  const named = osByName.find(([pattern]) => pattern.test(ua))
  return named === undefined ? os : { name: named[1], version: undefined }
}

/** The library's result with the rules applied; the OS first, which the browser and device rules read. */
export const refine = (ua: string, result: ParserResult, bot: Bot, mobileHint?: boolean): ParserResult => {
  const os = refineOs(ua, result.os)
  const family = osFamily(os.name)
  const device = refineDevice(ua, result.device, family, mobileHint)
  return { ...result, os, browser: refineBrowser(ua, result.browser, family, bot), device }
}
