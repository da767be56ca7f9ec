/** The families the contract names, written once: the schemas, the normalisation and the generator derive from them. */
import { Schema } from "effect"

export const BROWSER_FAMILIES = ["Chrome", "Firefox", "Safari", "Edge", "IE"] as const
export const OS_FAMILIES = ["Windows", "macOS", "iOS", "Android", "Linux"] as const
export const DEVICE_FAMILIES = ["Desktop", "Mobile", "Tablet"] as const
export const DEVICE_TYPES = [...DEVICE_FAMILIES, "SmartTV", "Console", "Wearable", "XR", "Embedded", "Unknown"] as const

export const BrowserFamily = Schema.Literals(BROWSER_FAMILIES).annotate({ identifier: "BrowserFamily" })
export const OsFamily = Schema.Literals(OS_FAMILIES).annotate({ identifier: "OsFamily" })
export const DeviceFamily = Schema.Literals(DEVICE_FAMILIES).annotate({ identifier: "DeviceFamily" })
export const DeviceType = Schema.Literals(DEVICE_TYPES).annotate({ identifier: "DeviceType" })
export type BrowserFamily = typeof BrowserFamily.Type
export type OsFamily = typeof OsFamily.Type
export type DeviceFamily = typeof DeviceFamily.Type
export type DeviceType = typeof DeviceType.Type

export const isBrowserFamily = Schema.is(BrowserFamily)

/** Where each browser family really runs, and on which devices each OS does. */
const everywhere = Object.fromEntries(OS_FAMILIES.map((os) => [os, true] as const))
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
