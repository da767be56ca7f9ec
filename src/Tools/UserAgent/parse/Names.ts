/** The contract's names for the parser's: families, device types, "Unknown"; other names pass through as they are. */
import { DEVICE_TYPES, type DeviceType } from "../Families.ts"

export const UNKNOWN = "Unknown"

/** The value, or "Unknown" when the parser left it missing, blank or not a string. */
export const known = (value: string | undefined): string =>
  typeof value !== "string" || value.trim() === "" ? UNKNOWN : value

// each family's names, "|" between them; a Map: a plain object would answer "constructor" from Object.prototype
const familyOf = (families: Record<string, string>): ReadonlyMap<string, string> =>
  new Map(
    Object.entries(families).flatMap(([family, names]) => names.split("|").map((name) => [name, family] as const))
  )

const browserFamilies = familyOf({
  Chrome: "chrome|mobile chrome|chrome webview|chrome headless|chromium",
  Firefox: "firefox|mobile firefox|firefox focus",
  Safari: "safari|mobile safari",
  IE: "ie|iemobile"
})

/** The contract's browser family, or the parser's own name for anything outside the families. */
export const browserFamily = (name: string | undefined): string => {
  const raw = known(name)
  const lower = raw.toLowerCase()
  if (lower === "edge" || lower.startsWith("edge ")) return "Edge"
  return browserFamilies.get(lower) ?? raw
}

const osFamilies = familyOf({
  Windows: "windows|windows rt",
  macOS: "macos|mac os",
  iOS: "ios|ipados",
  Android: "android|android-x86|chromecast android",
  // distributions ua-parser-js names; others it reports as "Linux" already
  Linux:
    "arch|centos|debian|deepin|elementary os|fedora|gentoo|ghostbsd-linux|gnu|joli|knoppix|kubuntu|linpus|linspire|" +
    "linux|mageia|mandriva|manjaro|mint|pclinuxos|raspbian|redhat|red hat|sabayon|slackware|suse|ubuntu|vectorlinux|" +
    "xubuntu|zenwalk"
})

/** The contract's OS family, or the parser's own name ("Chrome OS", "HarmonyOS", ...). */
export const osFamily = (name: string | undefined): string => osFamilies.get(known(name).toLowerCase()) ?? known(name)

/** ua-parser-js's device types ("smarttv"), as the API names them ("SmartTV"). */
export const deviceTypes: ReadonlyMap<string, DeviceType> = new Map(
  DEVICE_TYPES.filter((type) => type !== "Unknown").map((type): [string, DeviceType] => [type.toLowerCase(), type])
)

// workstation systems never ran on a phone or a TV: with no device class named, their strings come from a desktop
const desktopOses = new Set(["Windows", "macOS", "Linux", "Chrome OS", "Chromium OS"])
const workstationOses = new RegExp(
  "^(\\w*bsd|dragonfly|solaris|opensolaris|sunos|aix|hp-ux|irix|osf1|unix|haiku|beos|os/2|amigaos|morphos|risc os|" +
    "openvms|hurd|arcaos|serenityos)$",
  "i"
)

/** An OS that runs on desktops only: the contract's desktop families and the workstation systems. */
export const isDesktopOs = (os: string): boolean => desktopOses.has(os) || workstationOses.test(os)

/** The contract's device type: the parser's class, else Desktop for a desktop OS that is not a bot. */
export const deviceType = (type: string | undefined, os: string, isBot: boolean): DeviceType => {
  const mapped = typeof type !== "string" ? undefined : deviceTypes.get(type.toLowerCase())
  if (mapped !== undefined) return mapped === "Desktop" && isBot ? "Unknown" : mapped
  return isDesktopOs(os) && !isBot ? "Desktop" : "Unknown"
}
