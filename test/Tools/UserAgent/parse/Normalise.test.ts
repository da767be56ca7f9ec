import { describe, expect, test } from "bun:test"
import * as fc from "fast-check"
import { readFileSync } from "node:fs"
import type { UserAgentInfo } from "../../../../src/Tools/UserAgent/Schemas.ts"
import { browserFamily, deviceType, osFamily } from "../../../../src/Tools/UserAgent/parse/Names.ts"
import { parseUserAgent } from "../../../support/Devices.ts"

interface Labelled {
  readonly ua: string
  readonly browser: string | null
  readonly os: string | null
  readonly deviceType: string | null
  readonly bot: boolean | null
}
const readLabelled = (path: string): ReadonlyArray<Labelled> =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l))
const labelled = readLabelled(new URL("../../../fixtures/labelled-user-agents.jsonl", import.meta.url).pathname)

const families = {
  browser: ["Chrome", "Firefox", "Safari", "Edge", "IE"],
  os: ["Windows", "macOS", "iOS", "Android", "Linux"]
}
const familyOf = (field: "browser" | "os", name: string) => (families[field].includes(name) ? name : "Other")

/** Every string leaf of the result, for "never null, never empty". */
const leaves = (info: UserAgentInfo): Array<unknown> => {
  const out: Array<unknown> = []
  const walk = (value: unknown): void => {
    if (value !== null && typeof value === "object") Object.values(value).forEach(walk)
    else out.push(value)
  }
  walk(info)
  return out
}

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const ANDROID_K_PHONE =
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"

describe("what a user would notice", () => {
  test("Chrome on Windows 10 is Chrome / Windows 10 / Desktop", () => {
    const info = parseUserAgent(CHROME_WINDOWS)
    expect(info.browser).toEqual({ name: "Chrome", version: "124.0.0.0" })
    expect(info.os).toEqual({ name: "Windows", version: "10" })
    expect(info.device.type).toBe("Desktop")
    expect(info.bot).toEqual({ isBot: false, name: "Unknown", category: "Unknown" })
  })

  test("iPhone Safari is Safari / iOS / Mobile, made by Apple, model iPhone", () => {
    const info = parseUserAgent(IPHONE)
    expect(info).toMatchObject({
      userAgent: IPHONE,
      browser: { name: "Safari", version: "17.4" },
      os: { name: "iOS", version: "17.4" },
      device: { type: "Mobile", vendor: "Apple", model: "iPhone" },
      cpu: { architecture: "Unknown" },
      engine: { name: "WebKit", version: "605.1.15" }
    })
  })

  test("an iPad is a tablet, whichever browser", () => {
    for (const token of ["Version/17.4", "CriOS/124.0.6367.88", "FxiOS/125.0", "EdgiOS/124.0.2478.89"]) {
      const ua = `Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ${token} Mobile/15E148 Safari/604.1`
      expect(parseUserAgent(ua).device).toEqual({ type: "Tablet", vendor: "Apple", model: "iPad", name: "iPad" })
      expect(parseUserAgent(ua).os.name).toBe("iOS")
    }
  })

  test("an iPad asking for desktop sites is still an iPad when its browser exists only on iOS", () => {
    const ua =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Version/17.4 Safari/605.1.15"
    expect(parseUserAgent(ua)).toMatchObject({
      browser: { name: "Chrome" },
      os: { name: "iOS" },
      device: { type: "Tablet" }
    })
  })

  test('Android without "Mobile" is a tablet (Google\'s convention), with it a phone', () => {
    const tablet = ANDROID_K_PHONE.replace("Mobile Safari", "Safari")
    expect(parseUserAgent(tablet).device.type).toBe("Tablet")
    expect(parseUserAgent(ANDROID_K_PHONE).device.type).toBe("Mobile")
    // the string's word decides where the device database names no model; where it does, its class decides
    expect(parseUserAgent(tablet.replace("; K)", "; Pixel 8)")).device.type).toBe("Mobile")
    expect(parseUserAgent(ANDROID_K_PHONE.replace("; K)", "; SM-X710)")).device).toMatchObject({
      type: "Tablet",
      vendor: "Samsung"
    })
    expect(parseUserAgent("Mozilla/5.0 (Android 14; Tablet; rv:125.0) Gecko/125.0 Firefox/125.0").device.type).toBe(
      "Tablet"
    )
    expect(parseUserAgent("Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0").device.type).toBe(
      "Mobile"
    )
  })

  test("an Android app's HTTP client does not follow the browser convention", () => {
    const dalvik = "Dalvik/2.1.0 (Linux; U; Android 11; SM-G991B Build/RP1A.200720.012)"
    expect(parseUserAgent(dalvik).device.type).toBe("Mobile")
  })

  test("iPhone and iPod touch are mobile", () => {
    const ipod = IPHONE.replace("iPhone;", "iPod touch;")
    expect(parseUserAgent(ipod).device.type).toBe("Mobile")
  })

  const bots: ReadonlyArray<readonly [string, string, string]> = [
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", "crawler"],
    [
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      "GPTBot",
      "ai"
    ],
    ["curl/8.7.1", "curl", "cli"],
    ["python-requests/2.31.0", "python-requests", "library"]
  ]
  for (const [ua, name, category] of bots) {
    test(`${name} is a bot (${category}) with device Unknown`, () => {
      const info = parseUserAgent(ua)
      expect(info.bot).toEqual({ isBot: true, name, category })
      expect(info.device.type).toBe("Unknown")
      expect(info.browser.name).toBe(name)
    })
  }

  test("a bot that names its device keeps it; a headless browser stays the browser but is a bot", () => {
    const smartphone = `${ANDROID_K_PHONE.replace("; K)", "; Nexus 5X Build/MMB29P)")} (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`
    expect(parseUserAgent(smartphone)).toMatchObject({
      device: { type: "Mobile" },
      bot: { isBot: true, name: "Googlebot" }
    })
    const headless = CHROME_WINDOWS.replace("Chrome/", "HeadlessChrome/")
    expect(parseUserAgent(headless)).toMatchObject({
      browser: { name: "Chrome" },
      device: { type: "Unknown" },
      bot: { isBot: true, category: "headless" }
    })
  })

  test("ordinary browsers are not bots", () => {
    for (const c of labelled.filter((l) => l.bot === false)) expect(parseUserAgent(c.ua).bot.isBot).toBe(false)
  })

  test("garbage gives Unknown everywhere, never null or empty", () => {
    for (const ua of ["x", "-", "Mozilla/5.0", "%%% garbage \u0000 ###", "()", "/", " "]) {
      const info = parseUserAgent(ua)
      expect(info).toMatchObject({
        userAgent: ua,
        browser: { name: "Unknown", version: "Unknown" },
        os: { name: "Unknown", version: "Unknown" },
        device: { type: "Unknown", vendor: "Unknown", model: "Unknown" }
      })
      for (const leaf of leaves(info)) expect(leaf === null || leaf === "" || leaf === undefined).toBe(false)
    }
  })

  test("apps that borrow a browser's engine are reported as themselves", () => {
    expect(parseUserAgent(`${CHROME_WINDOWS} OPR/110.0.0.0`).browser.name).toBe("Opera")
    expect(parseUserAgent(`${CHROME_WINDOWS} Edg/124.0.0.0 Teams/24004.1307.2669.7070`).browser.name).toBe("Teams")
    expect(parseUserAgent(`${IPHONE} Brave`).browser.name).toBe("Brave")
    expect(
      parseUserAgent("Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; Trident/6.0; Microsoft Outlook 15.0.4420)")
        .browser.name
    ).toBe("Microsoft Outlook")
  })

  test('form-encoded strings ("+" for spaces) parse like the original; userAgent is echoed as sent', () => {
    const encoded = IPHONE.replaceAll(" ", "+")
    const info = parseUserAgent(encoded)
    expect(info.userAgent).toBe(encoded)
    expect(info).toMatchObject({ browser: { name: "Safari" }, os: { name: "iOS" }, device: { type: "Mobile" } })
  })
})

describe("family mapping (contract normalisation)", () => {
  test("browser families, case-insensitive; other browsers keep their name", () => {
    const cases: Record<string, string> = {
      Chrome: "Chrome",
      "Mobile Chrome": "Chrome",
      "Chrome WebView": "Chrome",
      "Chrome Headless": "Chrome",
      chromium: "Chrome",
      "Mobile Firefox": "Firefox",
      "Firefox Focus": "Firefox",
      "MOBILE SAFARI": "Safari",
      "Edge WebView2": "Edge",
      Edge: "Edge",
      IEMobile: "IE",
      Opera: "Opera",
      "Samsung Internet": "Samsung Internet"
    }
    for (const [raw, family] of Object.entries(cases)) expect(browserFamily(raw)).toBe(family)
    expect(browserFamily(undefined)).toBe("Unknown")
    expect(browserFamily("  ")).toBe("Unknown")
  })

  test("OS families; other systems keep their name", () => {
    const cases: Record<string, string> = {
      Windows: "Windows",
      "Mac OS": "macOS",
      macOS: "macOS",
      iPadOS: "iOS",
      Android: "Android",
      Ubuntu: "Linux",
      Debian: "Linux",
      Fedora: "Linux",
      Linux: "Linux",
      "Chrome OS": "Chrome OS",
      HarmonyOS: "HarmonyOS"
    }
    for (const [raw, family] of Object.entries(cases)) expect(osFamily(raw)).toBe(family)
    expect(osFamily(undefined)).toBe("Unknown")
  })

  test("device types: the parser's class, Desktop only for a desktop OS without a bot", () => {
    expect(deviceType("smarttv", "Android", false)).toBe("SmartTV")
    expect(deviceType("console", "PlayStation", false)).toBe("Console")
    expect(deviceType("xr", "Android", false)).toBe("XR")
    expect(deviceType("wearable", "Android", false)).toBe("Wearable")
    expect(deviceType("embedded", "Linux", false)).toBe("Embedded")
    for (const os of ["Windows", "macOS", "Linux", "Chrome OS"])
      expect(deviceType(undefined, os, false)).toBe("Desktop")
    expect(deviceType(undefined, "Windows", true)).toBe("Unknown")
    expect(deviceType(undefined, "Unknown", false)).toBe("Unknown")
  })
})

describe("client hints", () => {
  test("Windows 11 from sec-ch-ua-platform-version >= 13", () => {
    const hints = { "sec-ch-ua-platform": '"Windows"', "sec-ch-ua-platform-version": '"15.0.0"' }
    expect(parseUserAgent(CHROME_WINDOWS, hints).os).toEqual({ name: "Windows", version: "11" })
    expect(parseUserAgent(CHROME_WINDOWS, { ...hints, "sec-ch-ua-platform-version": '"10.0.0"' }).os.version).toBe("10")
    expect(parseUserAgent(CHROME_WINDOWS).os.version).toBe("10")
  })

  test("full versions from sec-ch-ua-full-version-list, also naming Edge behind a Chrome string", () => {
    const chrome = '"Chromium";v="124.0.6367.119", "Google Chrome";v="124.0.6367.119", "Not-A.Brand";v="99.0.0.0"'
    expect(parseUserAgent(CHROME_WINDOWS, { "sec-ch-ua-full-version-list": chrome }).browser).toEqual({
      name: "Chrome",
      version: "124.0.6367.119"
    })
    const edge = '"Chromium";v="124.0.6367.119", "Microsoft Edge";v="124.0.2478.80", "Not-A.Brand";v="99.0.0.0"'
    expect(parseUserAgent(CHROME_WINDOWS, { "sec-ch-ua-full-version-list": edge }).browser).toEqual({
      name: "Edge",
      version: "124.0.2478.80"
    })
  })

  test('Android\'s reduced "K" model is refined by sec-ch-ua-model', () => {
    expect(parseUserAgent(ANDROID_K_PHONE).device.model).toBe("Unknown")
    const info = parseUserAgent(ANDROID_K_PHONE, {
      "sec-ch-ua-model": '"Pixel 8 Pro"',
      "sec-ch-ua-mobile": "?1",
      "sec-ch-ua-platform": '"Android"',
      "sec-ch-ua-platform-version": '"14.0.0"'
    })
    expect(info.device).toEqual({ type: "Mobile", vendor: "Google", model: "Pixel 8 Pro", name: "Pixel 8 Pro" })
    expect(info.os).toEqual({ name: "Android", version: "14.0.0" })
  })

  test("a hinted model is inserted as it is: `$&` and `` $` `` are text, never replacement patterns", () => {
    const seen: Array<string> = []
    const devices = (text: string) => (seen.push(text), undefined)
    parseUserAgent(ANDROID_K_PHONE, { "sec-ch-ua-model": '"X$`$&$1"' }, { devices })
    expect(seen).toEqual([ANDROID_K_PHONE.replace("; K)", () => "; X$`$&$1)")])
    expect(seen[0]!.length).toBe(ANDROID_K_PHONE.length - 1 + "X$`$&$1".length)
  })

  test("header names in any case", () => {
    const info = parseUserAgent(CHROME_WINDOWS, {
      "Sec-CH-UA-Platform": '"Windows"',
      "SEC-CH-UA-PLATFORM-VERSION": '"15.0.0"',
      "Sec-Ch-Ua-Arch": '"arm"',
      "sec-ch-ua-BITNESS": '"64"'
    })
    expect(info.os.version).toBe("11")
    expect(info.cpu.architecture).toBe("arm64")
  })

  test("headers without client hints change nothing", () => {
    expect(parseUserAgent(CHROME_WINDOWS, { accept: "text/html" })).toEqual(parseUserAgent(CHROME_WINDOWS))
  })
})

describe("labelled strings", () => {
  test("every case of test/fixtures/labelled-user-agents.jsonl", () => {
    for (const c of labelled) {
      const info = parseUserAgent(c.ua)
      const got: Omit<Labelled, "ua"> = {
        browser: c.browser === null ? null : familyOf("browser", info.browser.name),
        os: c.os === null ? null : familyOf("os", info.os.name),
        deviceType: c.deviceType === null ? null : info.device.type,
        bot: c.bot === null ? null : info.bot.isBot
      }
      expect({ ua: c.ua, ...got }).toEqual({
        ua: c.ua,
        browser: c.browser,
        os: c.os,
        deviceType: c.deviceType,
        bot: c.bot
      })
    }
  })

  // A copy of the shared uap-core corpus (test/fixtures/README.md); measured with `bun run accuracy`.
  const corpus = new URL("../../../fixtures/uap-core.jsonl", import.meta.url).pathname
  test("uap-core corpus: browser and OS families stay above the targets", () => {
    let browser = 0
    let browserTotal = 0
    let os = 0
    let osTotal = 0
    for (const c of readLabelled(corpus)) {
      const info = parseUserAgent(c.ua)
      browserTotal++
      if (familyOf("browser", info.browser.name) === c.browser) browser++
      if (c.os === null) continue
      osTotal++
      if (familyOf("os", info.os.name) === c.os) os++
    }
    expect(browser / browserTotal).toBeGreaterThanOrEqual(0.97)
    expect(os / osTotal).toBeGreaterThanOrEqual(0.98)
  })
})

describe("properties", () => {
  const check = (ua: string) => {
    const info = parseUserAgent(ua)
    for (const leaf of leaves(info)) {
      if (leaf === null || leaf === undefined || leaf === "") throw new Error(`empty field for ${JSON.stringify(ua)}`)
    }
    if (info.userAgent !== ua) throw new Error("userAgent not echoed")
  }

  // the API accepts any string that is not blank, so that is the domain
  const notBlank = (s: string) => s.trim() !== ""

  test("arbitrary strings never throw and never give null, missing or empty fields", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 300 }).filter(notBlank), check), { numRuns: 400 })
  })

  test("real strings cut, spliced and mangled never throw either", () => {
    const real = fc.constantFrom(...labelled.map((l) => l.ua))
    const mangled = fc
      .tuple(real, real, fc.nat(), fc.nat(), fc.string({ maxLength: 20 }))
      .map(([a, b, i, j, junk]) => a.slice(0, i % (a.length + 1)) + junk + b.slice(j % (b.length + 1)))
    fc.assert(fc.property(mangled.filter(notBlank), check), { numRuns: 400 })
  })
})
