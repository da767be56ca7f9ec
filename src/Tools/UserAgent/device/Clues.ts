/**
 * The vendor a string's own browser or platform names where no model code does: software a vendor makes for its own
 * devices. In this order, the first the string carries names the vendor.
 */
import type { DeviceType } from "../Families.ts"

interface Clue {
  readonly vendor: string
  readonly clue: RegExp
  /** the device classes it names the vendor of, all but a desktop when not given */
  readonly on?: ReadonlyArray<DeviceType>
}

export const vendorClues: ReadonlyArray<Clue> = [
  // Samsung's TVs ("(SMART-TV; X11; Linux armv7l)", "(SMART-TV; LINUX; Tizen 6.0)"), Tizen, the system of Samsung's
  // phones, watches and TVs, and Samsung Internet (developer.samsung.com/internet/user-agent-string-format.html)
  { vendor: "Samsung", clue: /\(SMART-TV;|\bTizen\b|\bSamsungBrowser\// },
  // Huawei's browser and its HarmonyOS
  { vendor: "Huawei", clue: /\bHuaweiBrowser\/|\bHarmonyOS\b/ },
  // the browser of Xiaomi's MIUI
  { vendor: "Xiaomi", clue: /\bMiuiBrowser\// },
  // Kindle readers and Fire tablets by their model codes ("KFTRWI"); Silk, Amazon's browser, on its tablets and Echo
  // Show (Fire TV's Silk runs on other makers' TVs too)
  { vendor: "Amazon", clue: /\bKindle\b|; KF[A-Z]{2,6}(?: Build|[;)])/ },
  { vendor: "Amazon", clue: /\bSilk\/\d/, on: ["Mobile", "Tablet", "Embedded"] }
]

// every clue in one pattern: most strings carry none, and one scan tells
const anyClue = new RegExp(vendorClues.map(({ clue }) => clue.source).join("|"))

/** The vendor the string's browser or platform names for a device of class `type`, if any. */
export const vendorClue = (ua: string, type: DeviceType): string | undefined => {
  if (type === "Desktop" || !anyClue.test(ua)) return undefined
  for (const { vendor, clue, on } of vendorClues)
    if ((on === undefined || on.includes(type)) && clue.test(ua)) return vendor
  return undefined
}
