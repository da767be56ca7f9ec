/**
 * The device object as users read it (issue 37). Strings: issue 37's own (a phone's and browsers' as they send them
 * today), Google's documentation, Samsung's (developer.samsung.com/internet/user-agent-string-format.html), and the
 * fixtures of matomo-org/device-detector at 3856a28 (Tests/fixtures/<file>), browscap/browscap at 6c0c920
 * (tests/issues/<file>) and crawler-user-agents 1.60.0, named at each.
 */
import { describe, expect, test } from "bun:test"
import { nameOf } from "../../../../src/Tools/UserAgent/device/Answer.ts"
import { parseUserAgent } from "../../../support/Devices.ts"

const chrome = (model: string) =>
  `Mozilla/5.0 (Linux; Android 14; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36`
// issue 37: Chrome's reduced string, as every current Android Chrome sends it
const REDUCED =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
// issue 37: the Googlebot smartphone string (Google's documentation), and the same phone without the bot's comment
const NEXUS_5X =
  "Mozilla/5.0 (Linux; Android 8.1.0; Nexus 5X Build/OPM7.181205.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
const GOOGLEBOT =
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

describe("no placeholder is ever a model", () => {
  test("Chrome's reduced K is no model, and the Client Hints model still wins", () => {
    expect(parseUserAgent(REDUCED).device).toEqual({
      type: "Mobile",
      vendor: "Unknown",
      model: "Unknown",
      name: "Unknown"
    })
    const hinted = parseUserAgent(REDUCED, { "sec-ch-ua-model": '"SM-S911B"', "sec-ch-ua-mobile": "?1" })
    expect(hinted.device).toEqual({ type: "Mobile", vendor: "Samsung", model: "SM-S911B", name: "Galaxy S23" })
  })

  test("nor an emulator's stand-in (unknown.yml)", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 9; Unspecified Device) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.0.0 Mobile Safari/537.36"
    expect(parseUserAgent(ua).device.model).toBe("Unknown")
  })
})

describe("model and name come from one match", () => {
  test("the code the database matched on is the model, not the library's shorter one (issue 37)", () => {
    expect(parseUserAgent(NEXUS_5X).device).toEqual({
      type: "Mobile",
      vendor: "Google",
      model: "Nexus 5X",
      name: "Nexus 5X"
    })
  })

  test("an app that names Apple's model code (phablet-1.yml): the code, not the bare iPhone", () => {
    const ua =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 16_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 267.0.0.8.92 (iPhone15,2; iOS 16_1_1; ro_RO; ro-RO; scale=3.00; 1179x2556; 439751848)"
    expect(parseUserAgent(ua).device).toMatchObject({ vendor: "Apple", model: "iPhone15,2", name: "iPhone 14 Pro" })
  })

  test("a bot that embeds a phone's string answers that phone as the string without the bot would", () => {
    expect(parseUserAgent(GOOGLEBOT).bot.isBot).toBe(true)
    const phone = GOOGLEBOT.slice(0, GOOGLEBOT.indexOf(" (compatible;"))
    expect(parseUserAgent(GOOGLEBOT).device).toEqual(parseUserAgent(phone).device)
    expect(parseUserAgent(GOOGLEBOT).device).toMatchObject({ vendor: "Google", model: "Nexus 5X" })
    // crawler-user-agents: the bot's own name is no brand (the database has an "Ezze" that would match "EzoicBot")
    const ezoic =
      "Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.121 Mobile Safari/537.36 (compatible; EzoicBot-UptimeOwl; +http://www.ezoic.com/bot)"
    expect(parseUserAgent(ezoic).device).toEqual({
      type: "Mobile",
      vendor: "Google",
      model: "Pixel 2",
      name: "Pixel 2"
    })
  })
})

describe("the name is what people call the device", () => {
  test("the brand in front of a model that is a number or a bare series (issue 37, smartphone-36.yml)", () => {
    const names: Array<[ua: string, vendor: string, name: string]> = [
      [chrome("CPH2581"), "OnePlus", "OnePlus 12"],
      [chrome("2211133G"), "Xiaomi", "Xiaomi 13"],
      [chrome("23127PN0CG"), "Xiaomi", "Xiaomi 14"],
      [
        "Mozilla/5.0 (Linux; arm_64; Android 13; RMX3771) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/94.0.4606.85 YaApp_Android/21.114 YaSearchBrowser/21.114 BroPP/1.0 SA/3 Mobile Safari/537.36",
        "Realme",
        "Realme 11 Pro 5G"
      ]
    ]
    for (const [ua, vendor, name] of names)
      expect([ua, parseUserAgent(ua).device]).toMatchObject([ua, { vendor, name }])
  })

  test("unchanged where the model reads as a name (issue 37, phablet-1.yml, smartphone-40.yml)", () => {
    const names: Array<[ua: string, name: string]> = [
      [chrome("SM-S911B"), "Galaxy S23"],
      [
        "Mozilla/5.0 (Linux; arm_64; Android 14; 2312DRA50G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.94 YaBrowser/24.1.8.94.00 SA/3 Mobile Safari/537.36",
        "Redmi Note 13 Pro 5G"
      ],
      [
        "Mozilla/5.0 (Linux; Android 14; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36",
        "Pixel 9"
      ]
    ]
    for (const [ua, name] of names) expect([ua, parseUserAgent(ua).device.name]).toEqual([ua, name])
  })

  test("the rule, as docs/API.md gives it", () => {
    expect(nameOf("OnePlus", "12")).toBe("OnePlus 12")
    expect(nameOf("Huawei", "P30 Pro")).toBe("Huawei P30 Pro")
    expect(nameOf("Xiaomi", "Mi 11")).toBe("Xiaomi Mi 11")
    expect(nameOf("OPPO", "Reno8")).toBe("OPPO Reno8")
    for (const [brand, name] of [
      ["Samsung", "Galaxy S23"],
      ["Apple", "iPhone 14 Pro"],
      ["Google", "Pixel 9"],
      ["Xiaomi", "Redmi Note 13 Pro"],
      ["BlackBerry", "BlackBerry Playbook"]
    ] as const)
      expect(nameOf(brand, name)).toBe(name)
    expect(nameOf("Samsung", "")).toBe("Unknown")
  })
})

describe("the vendor from a vendor's own browser or platform, after the database's match", () => {
  test("Samsung: Samsung Internet on a reduced string, its TVs' SMART-TV and Tizen (issue 37, tv.yml, unknown.yml)", () => {
    const samsung: Array<[ua: string, type: string]> = [
      [
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
        "Mobile"
      ],
      [
        "Mozilla/5.0 (SMART-TV; X11; Linux armv7l) AppleWebKit/537.42 (KHTML, like Gecko) Chromium/25.0.1349.2 Chrome/25.0.1349.2 Safari/537.42",
        "SmartTV"
      ],
      [
        "Mozilla/5.0 (SMART-TV; X11; Linux i686) AppleWebKit/535.20+ (KHTML, like Gecko) Version/5.0 Safari/535.20+",
        "SmartTV"
      ],
      [
        "Mozilla/5.0 (Linux; U; Tizen/1.0 like Android; en-us; AppleWebKit/534.46 (KHTML, like Gecko) Tizen Browser/1.0 Mobile",
        "Mobile"
      ]
    ]
    for (const [ua, type] of samsung)
      expect([ua, parseUserAgent(ua).device]).toMatchObject([ua, { type, vendor: "Samsung" }])
  })

  test("Huawei's HarmonyOS (unknown.yml), Xiaomi's browser (issue-1423.php), a Fire tablet's code (issue-635.php)", () => {
    const vendors: Array<[ua: string, vendor: string]> = [
      [
        "Mozilla/5.0 (PC; OpenHarmony 5.0; HarmonyOS 5.0) AppleWebKit/537.36 (KHTML,like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Browser/harmony360Browser/1.0.0",
        "Huawei"
      ],
      [
        "Mozilla/5.0 (Linux; U; Android 5.0.2) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Mobile Safari/537.36 XiaoMi/MiuiBrowser/2.1.1",
        "Xiaomi"
      ],
      [
        "Mozilla/5.0 (Linux; Android 4.4.3; KFAPWA Build/KTU84M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.81 Safari/537.36 OPR/28.0.1764.90386",
        "Amazon"
      ]
    ]
    for (const [ua, vendor] of vendors) expect([ua, parseUserAgent(ua).device.vendor]).toEqual([ua, vendor])
  })

  test("the database's match comes first, and a desktop's browser names no maker (smartphone-1.yml, desktop-1.yml)", () => {
    // Samsung Internet on an Alcatel phone
    const alcatel =
      "Mozilla/5.0 (Linux; Android 8.1.0; 5003D_EEA) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/10.1 Chrome/71.0.3578.99 Mobile Safari/537.36"
    expect(parseUserAgent(alcatel).device.vendor).toBe("Alcatel")
    const windows =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/29.0 Chrome/136.0.0.0 Safari/537.36"
    expect(parseUserAgent(windows).device).toMatchObject({ type: "Desktop", vendor: "Unknown" })
  })
})
