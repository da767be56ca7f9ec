/**
 * Device-class rules: what the library leaves without a class or classes by the "Mobile" word alone, read from the
 * string's own tokens and the conventions of platforms and vendors (`UserAgentDevices.ts` holds the token tables).
 */
import {
  androidClass,
  androidModel,
  isEmbedded,
  isFeaturePhone,
  isMobileOnly,
  isTv,
  isWearable,
  puffinPlatform
} from "./LongTail.ts"
import { isDesktopOs } from "./Names.ts"

const handsetWords = /Mobi|PPC|Palm|ARM;|Android|Phone|Touch|HTC|SAMSUNG|Opera Mini|UCWEB|J2ME|MIDP/i

/** The device part of a ua-parser-js result. */
export interface DeviceFields {
  readonly type?: string | undefined
  readonly vendor?: string | undefined
  readonly model?: string | undefined
}

const liveTypes = new Set([undefined, "mobile", "tablet"])

/**
 * The device class of a string, from the library's and the OS the rules settled on: Apple's and Microsoft's own
 * tokens first, then the markers of embedded devices and TVs, then Android's model lines and Google's convention.
 */
export const refineDevice = (ua: string, device: DeviceFields, os: string, mobileHint?: boolean): DeviceFields => {
  const type = device.type
  if (mobileHint === true) return { ...device, type: "mobile" }
  // an iPad token wins over "iPhone OS", the system's old name ("(iPad; iPhone OS 5.1.1)", "iPad7,5")
  if (os === "iOS" && /\biPad/.test(ua)) return { vendor: "Apple", model: "iPad", type: "tablet" }
  if (os === "iOS" && /\b(iPhone|iPod)/.test(ua)) return { ...device, type: "mobile" }
  // an iPad in desktop mode, whose iOS-only browser still gives it away
  if (os === "iOS" && /\bMacintosh\b/.test(ua)) return { vendor: "Apple", model: "iPad", type: "tablet" }
  if (os === "tvOS") return { vendor: "Apple", model: "Apple TV", type: "smarttv" }
  if (liveTypes.has(type) && isWearable(ua)) return { ...device, type: "wearable" }
  // an Xbox's browser says "Windows Phone" or "Windows NT 10.0" and "Xbox"
  if (/\bXbox\b/.test(ua)) return { vendor: "Microsoft", model: "Xbox", type: "console" }
  if (os === "Windows Phone") return { ...device, type: "mobile" }
  // Windows 10 Mobile's Edge in desktop mode names the handset after "ARM" ("Windows NT 10.0; ARM; Lumia 950")
  if (/\bWindows NT 10\.0; ARM; (?!Trident|Touch)\w/.test(ua)) return { ...device, type: "mobile" }
  // Windows 8 and later with Microsoft's "Touch" token and no other class named: a tablet (Matomo reads it so)
  if (os === "Windows" && type === undefined && /\bTouch\b/.test(ua) && /\bWindows NT (?:6\.[2-9]|1\d)/.test(ua)) {
    return { ...device, type: "tablet" }
  }
  // a speaker's, camera's or car unit's own token, and a TV platform's, outrank a phone model the library guesses
  // from them ("BrightSign/7.0.60 (XT1143)")
  if (liveTypes.has(type) && isEmbedded(ua)) return { ...device, type: "embedded" }
  if (liveTypes.has(type) && isTv(ua, undefined)) return { ...device, type: "smarttv" }
  // on Windows the library's phone or tablet guessed from a PC maker's name ("Dell Inc./OptiPlex 3050") or a language
  // tag ("lg-UG") is none without a handset's words
  if (os === "Windows" && (type === "mobile" || type === "tablet") && !handsetWords.test(ua) && !isFeaturePhone(ua)) {
    return { ...device, type: undefined }
  }
  const puffin = puffinPlatform(ua)
  if (puffin !== undefined && os !== "Android") return { ...device, type: puffin.type }
  if (os === "Android" && liveTypes.has(type)) {
    // the model's own line (a TV box, a tablet, a foldable) outranks the browser's "Mobile" word
    const byModel = androidClass(ua, androidModel(ua) ?? device.model)
    if (byModel !== undefined) return { ...device, type: byModel }
    if (puffin !== undefined) return { ...device, type: puffin.type }
    // a tablet line the library names with its maker outranks the browser's "Mobile" word (Acer's pattern, any
    // "A" and three digits, is a guess)
    if (type === "tablet" && device.vendor !== undefined && device.vendor !== "Acer") return device
    // Android 3 (Honeycomb) ran on tablets only; Yandex's apps name their platform "apad" on tablets; Amazon's Silk
    // accelerates only on Kindle Fire tablets; PocketBook makes e-readers
    if (/\bAndroid 3\.\d|\/apad\b|\bSilk-Accelerated\b|\bPocketBook\b/.test(ua)) return { ...device, type: "tablet" }
    // Google's convention for Android browsers: "Mobile" on phones, left out on tablets (Firefox says "Tablet")
    if (/AppleWebKit\/|Gecko\//i.test(ua)) {
      return { ...device, type: /\bMobile\b|\bAphone\b/.test(ua) && !/\bTablet\b/.test(ua) ? "mobile" : "tablet" }
    }
    // apps and the Dalvik VM follow no convention: the library's type for a model line it knows, else a phone,
    // as most Android devices are
    if (/\bTablet\b/.test(ua)) return { ...device, type: "tablet" }
    return { ...device, type: device.vendor === undefined ? "mobile" : (type ?? "mobile") }
  }
  if (type !== undefined) return device
  // iOS apps' own strings ("Pinterest/4.1.3 CFNetwork/672.1.14 Darwin/14.0.0") name no device: a phone, as most
  // iOS devices are (an iPad's apps say so in their name or model)
  if (os === "iOS") return { ...device, type: "mobile" }
  // Palm's webOS ran on its phones (the TouchPad says "hp-tablet", LG's TVs "Web0S")
  if (isMobileOnly(ua) || (!isDesktopOs(os) && isFeaturePhone(ua)) || os === "webOS")
    return { ...device, type: "mobile" }
  return device
}
