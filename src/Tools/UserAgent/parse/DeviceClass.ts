/** The device class where the library has none or reads the "Mobile" word alone (LongTail.ts holds the tables). */
import * as longTail from "./LongTail.ts"
import { isDesktopOs } from "./Names.ts"

const handsetWords = /Mobi|PPC|Palm|ARM;|Android|Phone|Touch|HTC|SAMSUNG|Opera Mini|UCWEB|J2ME|MIDP/i

export interface DeviceFields {
  readonly type?: string | undefined
  readonly vendor?: string | undefined
  readonly model?: string | undefined
}

const liveTypes = new Set([undefined, "mobile", "tablet"])

/** Apple's and Microsoft's own tokens first, then embedded devices and TVs, then Android's model lines. */
export const refineDevice = (ua: string, device: DeviceFields, os: string, mobileHint?: boolean): DeviceFields => {
  const type = device.type
  const typed = (to: string | undefined): DeviceFields => ({ ...device, type: to })
  if (mobileHint === true) return typed("mobile")
  // an iPad token wins over "iPhone OS", the system's old name
  if (os === "iOS" && /\biPad/.test(ua)) return { vendor: "Apple", model: "iPad", type: "tablet" }
  if (os === "iOS" && /\b(iPhone|iPod)/.test(ua)) return typed("mobile")
  // an iPad in desktop mode, whose iOS-only browser still gives it away
  if (os === "iOS" && /\bMacintosh\b/.test(ua)) return { vendor: "Apple", model: "iPad", type: "tablet" }
  if (os === "tvOS") return { vendor: "Apple", model: "Apple TV", type: "smarttv" }
  if (liveTypes.has(type) && longTail.isWearable(ua)) return typed("wearable")
  if (/\bXbox\b/.test(ua)) return { vendor: "Microsoft", model: "Xbox", type: "console" }
  if (os === "Windows Phone") return typed("mobile")
  // Windows 10 Mobile's Edge in desktop mode ("Windows NT 10.0; ARM; Lumia 950")
  if (/\bWindows NT 10\.0; ARM; (?!Trident|Touch)\w/.test(ua)) return typed("mobile")
  // Windows 8 and later with "Touch" and no other class: a tablet, as Matomo reads it
  if (os === "Windows" && type === undefined && /\bTouch\b/.test(ua) && /\bWindows NT (?:6\.[2-9]|1\d)/.test(ua)) {
    return typed("tablet")
  }
  // an embedded device's or a TV platform's token outranks a phone model guessed from it ("BrightSign/7.0.60 (XT1143)")
  if (liveTypes.has(type) && longTail.embeddedMarker.test(ua)) return typed("embedded")
  if (liveTypes.has(type) && longTail.isTv(ua, undefined)) return typed("smarttv")
  // on Windows, a phone guessed from a PC maker's name or a language tag ("lg-UG") needs a handset's words
  const guessed = type === "mobile" || type === "tablet"
  if (os === "Windows" && guessed && !handsetWords.test(ua) && !longTail.isFeaturePhone(ua)) return typed(undefined)
  const puffin = longTail.puffinPlatform(ua)
  if (puffin !== undefined && os !== "Android") return typed(puffin.type)
  if (os === "Android" && liveTypes.has(type)) {
    // the model's own line (a TV box, a tablet, a foldable) outranks the browser's "Mobile" word
    const byModel = longTail.androidClass(ua, longTail.androidModel(ua) ?? device.model)
    if (byModel !== undefined) return typed(byModel)
    if (puffin !== undefined) return typed(puffin.type)
    // a tablet line the library names with its maker (not Acer's, any "A" and three digits) outranks "Mobile"
    if (type === "tablet" && device.vendor !== undefined && device.vendor !== "Acer") return device
    // Android 3 ran on tablets only; Yandex's "apad", Silk's acceleration and PocketBook are tablets' too
    if (/\bAndroid 3\.\d|\/apad\b|\bSilk-Accelerated\b|\bPocketBook\b/.test(ua)) return typed("tablet")
    // Google's convention for Android browsers: "Mobile" on phones, left out on tablets (Firefox says "Tablet")
    if (/AppleWebKit\/|Gecko\//i.test(ua))
      return typed(/\bMobile\b|\bAphone\b/.test(ua) && !/\bTablet\b/.test(ua) ? "mobile" : "tablet")
    // apps follow no convention: the library's type for a model line it knows, else a phone, as most are
    if (/\bTablet\b/.test(ua)) return typed("tablet")
    return typed(device.vendor === undefined ? "mobile" : (type ?? "mobile"))
  }
  if (type !== undefined) return device
  // iOS apps' own strings name no device: a phone, as most are (an iPad's apps say so)
  if (os === "iOS") return typed("mobile")
  // Palm's webOS ran on its phones (its TouchPad and LG's TVs say so)
  if (longTail.isMobileOnly(ua) || (!isDesktopOs(os) && longTail.isFeaturePhone(ua)) || os === "webOS")
    return typed("mobile")
  return device
}
