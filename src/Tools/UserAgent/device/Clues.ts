/** The vendor a string's own browser or platform names where no model code does: the first clue it carries. */
import type { DeviceType } from "../Families.ts"

interface Clue {
  readonly vendor: string
  readonly clue: RegExp
  /** the device classes it names the vendor of, all but a desktop when not given */
  readonly on?: ReadonlyArray<DeviceType>
}

export const vendorClues: ReadonlyArray<Clue> = [
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

/** The vendor the string's browser or platform names for a device of class `type`, if any. */
export const vendorClue = (ua: string, type: DeviceType): string | undefined => {
  if (type === "Desktop" || !anyClue.test(ua)) return undefined
  for (const { vendor, clue, on } of vendorClues)
    if ((on === undefined || on.includes(type)) && clue.test(ua)) return vendor
  return undefined
}
