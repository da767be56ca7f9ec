/**
 * The device as users read it, from what a string carries: the device database's match, a vendor's own browser or
 * platform, and the library's answer. The database names the device where it knows it: its brand, the code it
 * matched on as the model (unless the library named the same code in full) and its name; the vendor clues come next,
 * then the library. A placeholder is never a model.
 */
import type { DeviceType } from "../Families.ts"
import { UNKNOWN } from "../parse/Names.ts"
import type { DeviceIdentity } from "./Lookup.ts"
import { vendorClue } from "./Clues.ts"

// What browsers send in the model's place to hide it (Chrome's reduced string and those built on it: "K"), and the
// stand-ins of emulators and previews
const placeholder = /^(?:K|Unspecified Device|Unknown|generic)$/i

const known = (value: string | undefined): string =>
  value === undefined || value.trim() === "" || placeholder.test(value.trim()) ? UNKNOWN : value

// for comparing codes written with other separators ("HTC_One_X", "One X")
const plain = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, " ")

/**
 * The code the database matched on, as the string writes it: without the characters before it that the pattern reads
 * (a pattern starts a token) and the delimiters after it, and without the brand written in front ("SAMSUNG-SM-G900A").
 */
export const matchedCode = (ua: string, match: string, brand: string): string => {
  // a variant's few letters after the code the pattern reads ("LG-E981h", "SM-T330NU"), but not another word
  const variant = /^[A-Za-z0-9]{1,3}(?![A-Za-z0-9])/.exec(ua.slice(ua.indexOf(match) + match.length))?.[0]
  const code = (/[A-Za-z0-9]$/.test(match) && variant !== undefined ? match + variant : match)
    .replace(/^(?:sprd-|[^A-Za-z0-9]+)/i, "")
    .replace(/(?:[\s);/,_-]|\bBuild\b)+$/i, "")
  return withoutBrand(code, brand)
}

// "SAMSUNG-SM-G900A", "HUAWEI MT1-U06", "MicromaxX650", "SonyEricssonS312": the code after its brand
const withoutBrand = (code: string, brand: string): string => {
  const written = new RegExp(`^${brand.replace(/\W+/g, "\\W?")}`, "i").exec(code)?.[0]
  if (written === undefined) return code
  const rest = code.slice(written.length)
  return /^[\s_/-]+[A-Za-z0-9]|^[A-Z0-9]/.test(rest) ? rest.replace(/^[\s_/-]+/, "") : code
}

/**
 * The model: the library's where it names the code the database matched on, or a longer form of it ("SM-G900P" for
 * "SM-G900", "One X" for "HTC_One_X"); the code where the library cut it short ("Nexus 5X", not "Nexus 5") or named
 * another; the library's where the database matched a word that is no model code ("Silk-Accelerated", "CrKey").
 */
const modelOf = (ua: string, library: string, identity: DeviceIdentity | undefined): string => {
  if (identity === undefined || identity.code === "") return library
  // most often the library read the very code the database matched, whole: nothing to compare
  const at = library === UNKNOWN ? -1 : identity.code.indexOf(library)
  const [before, after] = [identity.code.charAt(at - 1), identity.code.slice(at + library.length)]
  if (at >= 0 && !/[A-Za-z0-9]/.test(before) && /^[\s);/,_-]+(?:Build)?$/.test(after)) return library
  const code = matchedCode(ua, identity.code, identity.brand)
  // a code across the string's delimiters is a pattern's reach ("Sky, XiOneUK, Wired"), not a model; Apple's codes
  // have a comma between numbers ("iPhone15,2")
  if (code === "" || /[;()/*]|,(?!\d)|(?<!\d),/.test(code)) return library
  const [lib, own] = [plain(library), plain(code)]
  if (library !== UNKNOWN && (lib.includes(own) || own.endsWith(` ${lib}`))) return library
  return (library !== UNKNOWN && own.includes(lib)) || /\d/.test(code) ? code : library
}

// A model that alone is a number or a bare series ("12", "P30 Pro", "Mi 11"): the brand is part of its name
const bareModel = /^(?:\d|[A-Za-z]{1,2}(?:\d|\s|$)|[A-Za-z]+\d)/

/** What people call the device: the database's model, with the brand in front where the model alone says little. */
export const nameOf = (brand: string, name: string): string => {
  if (name === "") return UNKNOWN
  const first = name.split(/\s/)[0] ?? ""
  if (!bareModel.test(first) || plain(name).startsWith(plain(brand))) return name
  return `${brand} ${name}`
}

export interface DeviceAnswer {
  readonly vendor: string
  readonly model: string
  readonly name: string
}

/**
 * The vendor, model and name of a string: `identity` is the database's answer for the string (or for the device the
 * string embeds), `library` the library's vendor and model after the rules; `type` is the device's class for the
 * vendor clues, undefined where they do not apply (a bot that names no device).
 */
export const deviceAnswer = (
  ua: string,
  library: { readonly vendor: string; readonly model: string | undefined },
  identity: DeviceIdentity | undefined,
  type: DeviceType | undefined
): DeviceAnswer => ({
  vendor: identity?.brand ?? (type === undefined ? undefined : vendorClue(ua, type)) ?? library.vendor,
  model: modelOf(ua, known(library.model), identity),
  name: identity === undefined ? UNKNOWN : nameOf(identity.brand, identity.name)
})
