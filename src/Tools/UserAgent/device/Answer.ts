/** The device as users read it: the database's match first, then a vendor's own software, then the library's. */
import type { DeviceType } from "../Families.ts"
import { known, UNKNOWN } from "../parse/Names.ts"
import type { DeviceIdentity } from "./Lookup.ts"

// what browsers send in the model's place (Chrome's reduced "K"), and emulators' stand-ins
const placeholder = /^(?:K|Unspecified Device|Unknown|generic)$/i

const plain = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, " ")

/** The code the database matched on, without the delimiters around it and the brand in front ("SAMSUNG-SM-G900A"). */
const matchedCode = (ua: string, match: string, brand: string): string => {
  // a variant's few letters after the code ("LG-E981h", "SM-T330NU"), but not another word
  const variant = /^[A-Za-z0-9]{1,3}(?![A-Za-z0-9])/.exec(ua.slice(ua.indexOf(match) + match.length))?.[0]
  const code = (/[A-Za-z0-9]$/.test(match) && variant !== undefined ? match + variant : match)
    .replace(/^(?:sprd-|[^A-Za-z0-9]+)/i, "")
    .replace(/(?:[\s);/,_-]|\bBuild\b)+$/i, "")
  const written = new RegExp(`^${brand.replace(/\W+/g, "\\W?")}`, "i").exec(code)?.[0]
  if (written === undefined) return code
  const rest = code.slice(written.length)
  return /^[\s_/-]+[A-Za-z0-9]|^[A-Z0-9]/.test(rest) ? rest.replace(/^[\s_/-]+/, "") : code
}

// The library's model where it names the matched code or a longer form of it ("SM-G900P" for "SM-G900"); the code
// where the library cut it short or named another; the library's where the match is no model code ("CrKey").
const modelOf = (ua: string, library: string, identity: DeviceIdentity | undefined): string => {
  if (identity === undefined || identity.code === "") return library
  // most often the library read the very code the database matched
  const at = library === UNKNOWN ? -1 : identity.code.indexOf(library)
  const [before, after] = [identity.code.charAt(at - 1), identity.code.slice(at + library.length)]
  if (at >= 0 && !/[A-Za-z0-9]/.test(before) && /^[\s);/,_-]+(?:Build)?$/.test(after)) return library
  const code = matchedCode(ua, identity.code, identity.brand)
  // a code across delimiters is a pattern's reach ("Sky, XiOneUK, Wired"), not a model (but "iPhone15,2" is)
  if (code === "" || /[;()/*]|,(?!\d)|(?<!\d),/.test(code)) return library
  const [lib, own] = [plain(library), plain(code)]
  if (library !== UNKNOWN && (lib.includes(own) || own.endsWith(` ${lib}`))) return library
  return (library !== UNKNOWN && own.includes(lib)) || /\d/.test(code) ? code : library
}

// a model that alone is a number or a bare series ("12", "P30 Pro"): the brand is part of its name
const bareModel = /^(?:\d|[A-Za-z]{1,2}(?:\d|\s|$)|[A-Za-z]+\d)/

/** What people call the device: the database's model, with the brand in front where the model alone says little. */
export const nameOf = (brand: string, name: string): string => {
  if (name === "") return UNKNOWN
  if (!bareModel.test(name) || plain(name).startsWith(plain(brand))) return name
  return `${brand} ${name}`
}

// the vendor a string's own browser or platform names where no model code does, `on` these classes (else all but Desktop)
const vendorClues: ReadonlyArray<{ vendor: string; clue: RegExp; on?: ReadonlyArray<DeviceType> }> = [
  // Samsung's TVs, Tizen (its phones', watches' and TVs' system) and Samsung Internet
  { vendor: "Samsung", clue: /\(SMART-TV;|\bTizen\b|\bSamsungBrowser\// },
  { vendor: "Huawei", clue: /\bHuaweiBrowser\/|\bHarmonyOS\b/ },
  { vendor: "Xiaomi", clue: /\bMiuiBrowser\// },
  // Kindle and Fire tablets' codes ("KFTRWI"); Silk on its tablets and Echo Show (Fire TV's runs on others' TVs)
  { vendor: "Amazon", clue: /\bKindle\b|; KF[A-Z]{2,6}(?: Build|[;)])/ },
  { vendor: "Amazon", clue: /\bSilk\/\d/, on: ["Mobile", "Tablet", "Embedded"] }
]

// most strings carry no clue: one scan tells
const anyClue = new RegExp(vendorClues.map(({ clue }) => clue.source).join("|"))

const vendorClue = (ua: string, type: DeviceType): string | undefined => {
  if (type === "Desktop" || !anyClue.test(ua)) return undefined
  return vendorClues.find(({ clue, on }) => (on === undefined || on.includes(type)) && clue.test(ua))?.vendor
}

/** `library` is the library's vendor and model after the rules; `type` undefined where no vendor clue applies. */
export const deviceAnswer = (
  ua: string,
  library: { readonly vendor: string; readonly model: string | undefined },
  identity: DeviceIdentity | undefined,
  type: DeviceType | undefined
) => ({
  vendor: identity?.brand ?? (type === undefined ? undefined : vendorClue(ua, type)) ?? library.vendor,
  model: modelOf(ua, placeholder.test(library.model?.trim() ?? "") ? UNKNOWN : known(library.model), identity),
  name: identity === undefined ? UNKNOWN : nameOf(identity.brand, identity.name)
})

// Matomo's classes as the contract's types; a class not here ("desktop") leaves the string's type
const classTypes: ReadonlyMap<string, DeviceType> = new Map([
  ["smartphone", "Mobile"],
  ["phablet", "Mobile"],
  ["feature phone", "Mobile"],
  ["portable media player", "Mobile"],
  ["tablet", "Tablet"],
  ["tv", "SmartTV"],
  ["set-top box", "SmartTV"],
  ["console", "Console"],
  ["handheld console", "Console"],
  ["wearable", "Wearable"],
  ["car browser", "Embedded"],
  ["smart display", "Embedded"],
  ["smart speaker", "Embedded"],
  ["camera", "Embedded"],
  ["peripheral", "Embedded"]
])

/**
 * The type by the database's class where it names the model; undefined where the string's `type` stands: no model
 * matched, a headset (Matomo's wearable, the contract's XR), a TV's token beside a phone's code, a phablet's
 * string that says tablet. docs/ACCURACY.md gives each rule's figures.
 */
export const classType = (identity: DeviceIdentity, type: DeviceType): DeviceType | undefined => {
  const classed = identity.modelled ? classTypes.get(identity.kind) : undefined
  if (classed === undefined || type === "XR") return undefined
  if (type === "SmartTV" && classed === "Mobile") return undefined
  return identity.kind === "phablet" && type === "Tablet" ? undefined : classed
}
