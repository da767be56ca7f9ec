/**
 * The families the contract reports by name, written once: the request schemas, the normalisation and the
 * generator all derive from these lists.
 */
export const BROWSER_FAMILIES = ["Chrome", "Firefox", "Safari", "Edge", "IE"] as const
export type BrowserFamily = (typeof BROWSER_FAMILIES)[number]

export const OS_FAMILIES = ["Windows", "macOS", "iOS", "Android", "Linux"] as const
export type OsFamily = (typeof OS_FAMILIES)[number]

export const DEVICE_FAMILIES = ["Desktop", "Mobile", "Tablet"] as const
export type DeviceFamily = (typeof DEVICE_FAMILIES)[number]

export const DEVICE_TYPES = [...DEVICE_FAMILIES, "SmartTV", "Console", "Wearable", "XR", "Embedded", "Unknown"] as const
export type DeviceType = (typeof DEVICE_TYPES)[number]

const browserFamilies: ReadonlySet<string> = new Set(BROWSER_FAMILIES)
export const isBrowserFamily = (name: string): name is BrowserFamily => browserFamilies.has(name)

/** Where each browser family really runs, and on which devices each OS does. */
const everywhere: Partial<Record<OsFamily, true>> = {
  Windows: true,
  macOS: true,
  Linux: true,
  Android: true,
  iOS: true
}
export const browserOses: Record<BrowserFamily, Partial<Record<OsFamily, true>>> = {
  Chrome: everywhere,
  Firefox: everywhere,
  Edge: everywhere,
  Safari: { macOS: true, iOS: true },
  IE: { Windows: true }
}
export const osDevices: Record<OsFamily, ReadonlyArray<DeviceFamily>> = {
  Windows: ["Desktop"],
  macOS: ["Desktop"],
  Linux: ["Desktop"],
  Android: ["Mobile", "Tablet"],
  iOS: ["Mobile", "Tablet"]
}
