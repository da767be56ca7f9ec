/**
 * The long tail of devices (issue 14): feature phones, Android tablets that say "Mobile", TVs and boxes, in-app
 * strings and Android or iOS named in odd ways. Every case of test/fixtures/long-tail.jsonl, and the token tables
 * of src/Tools/UserAgent/parse/LongTail.ts on their own.
 */
import { describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { androidClass, androidModel, isFeaturePhone, isTv } from "../../../../src/Tools/UserAgent/parse/LongTail.ts"
import { parseUserAgent } from "../../../../src/Tools/UserAgent/parse/Normalise.ts"

interface LongTail {
  readonly ua: string
  readonly os: string | null
  readonly deviceType: string
  readonly kind: string
  readonly source: string
}

const cases: ReadonlyArray<LongTail> = readFileSync(
  new URL("../../../fixtures/long-tail.jsonl", import.meta.url).pathname,
  "utf8"
)
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line))

const osFamilies = new Set(["Windows", "macOS", "iOS", "Android", "Linux"])

/** "OS device type" of the service's parse, e.g. "Android Tablet". */
const parse = (ua: string): string => {
  const info = parseUserAgent(ua)
  return `${info.os.name} ${info.device.type}`
}

describe("long-tail labelled strings", () => {
  test("the fixture has cases of every kind, each with its source", () => {
    const kinds = new Set(cases.map((c) => c.kind))
    const all = ["android", "app", "convention", "embedded", "feature", "ios", "phone", "tablet", "tv"]
    expect([...kinds].sort()).toEqual(all)
    for (const c of cases)
      expect(c.source).toMatch(/^(matomo-org\/device-detector|WhichBrowser\/Parser|browscap\/browscap) /)
  })

  test("every case of test/fixtures/long-tail.jsonl: device type and OS family", () => {
    for (const c of cases) {
      const info = parseUserAgent(c.ua)
      const os = osFamilies.has(info.os.name) ? info.os.name : "Other"
      const got: Omit<LongTail, "kind" | "source"> = {
        ua: c.ua,
        os: c.os === null ? null : os,
        deviceType: info.device.type
      }
      expect(got).toEqual({
        ua: c.ua,
        os: c.os,
        deviceType: c.deviceType
      })
    }
  })
})

describe("the kinds the issue names", () => {
  test("WAP and J2ME feature phones are Mobile, never Unknown or Desktop", () => {
    expect(parse("Nokia6300/2.0 (07.21) Profile/MIDP-2.0 Configuration/CLDC-1.1")).toEndWith(" Mobile")
    expect(parse("SonyEricssonK800i/R1KG Browser/NetFront/3.3 Profile/MIDP-2.0 Configuration/CLDC-1.1")).toEndWith(
      " Mobile"
    )
    expect(parse("Cricket-A310/1.0 UP.Browser/6.3.0.7 (GUI) MMP/2.0")).toBe("Unknown Mobile")
    // ua-parser-js reads Opera Mini's Java edition as iOS
    expect(parse("Opera/9.80 (J2ME/MIDP; Opera Mini/5.0.22371/28.3782; U; en) Presto/2.8.119 Version/11.10")).toBe(
      "Java ME Mobile"
    )
  })

  test("Android tablets whose browser says Mobile are tablets; big phones and foldables stay phones", () => {
    const android = (model: string, mobile = " Mobile") =>
      parse(
        `Mozilla/5.0 (Linux; Android 11; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0${mobile} Safari/537.36`
      )
    expect(android("KFTRWI")).toBe("Android Tablet")
    expect(android("SM-T510")).toBe("Android Tablet")
    expect(android("Lenovo TB-X606F")).toBe("Android Tablet")
    expect(android("SM-F926W", "")).toBe("Android Mobile")
    // the convention still holds where the model says nothing
    expect(android("K", "")).toBe("Android Tablet")
    expect(android("K")).toBe("Android Mobile")
  })

  test("TVs and boxes by their platform token or model name", () => {
    expect(parse("Amazon;AFTT;756a522d9f1648b89e76e80be654456a;;tpapi")).toBe("Android SmartTV")
    expect(
      parse(
        "BrightSign/7.0.60 (XT1143) Mozilla/5.0 (Unknown; Linux arm) AppleWebKit/537.36 (KHTML, like Gecko) QtWebEngine/5.6.0 Chrome/45.0.2454.101 Safari/537.36"
      )
    ).toEndWith(" SmartTV")
    expect(
      parse(
        "Mozilla/5.0 (Linux; Android 7.1; Smotreshka Box 115NA) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.93 Safari/537.36"
      )
    ).toBe("Android SmartTV")
  })

  test("TV model names: a panel type with its size, a size leading the code, box makers, TV brands' prefixes", () => {
    expect(
      parse(
        "Mozilla/5.0 (Linux; Android 7.0; TF-LED40S19T2S Build/NRD90M; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/51.0.2704.91 Safari/537.36"
      )
    ).toBe("Android SmartTV")
    expect(
      parse(
        "Mozilla/5.0 (Linux; Android 9; 43U600KD Build/PTT1.190222.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/97.0.4692.87 Safari/537.36"
      )
    ).toBe("Android SmartTV")
    expect(
      parse(
        "Mozilla/5.0 (Linux; arm; Android 11; VONTAR X4) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/89.0.4389.114 YaBrowser/21.3.0.269.01 Safari/537.36"
      )
    ).toBe("Android SmartTV")
    expect(
      parse("Opera/9.80 (Linux mips; ) Presto/2.12.407 Version/12.51 MB95/3.3.6.X (TOSHIBA, Si2156LG32, wireless)")
    ).toBe("Linux SmartTV")
    expect(androidClass("", "POLARLINE_32PL13TC-SM")).toBe("smarttv")
    expect(androidClass("", "SM-QLED50T2SU")).toBe("smarttv")
    // 70 is a tablet's 7.0 inches, and KM with four digits is a tablet line, not a box
    expect(androidClass("", "SN70T51A")).not.toBe("smarttv")
    expect(androidClass("", "KM1073")).not.toBe("smarttv")
  })

  test("tablet codes led by a screen size, tablet-only lines, Tablet inside a model name", () => {
    expect(
      parse(
        "Mozilla/5.0 (Linux; Android 8.1.0; BQ-7098G Build/OPM2.171019.012; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/76.0.3809.132 Mobile Safari/537.36"
      )
    ).toBe("Android Tablet")
    expect(
      parse(
        "Mozilla/5.0 (Linux; Android 9; TZ711) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.99 Mobile Safari/537.36"
      )
    ).toBe("Android Tablet")
    expect(parse("Dalvik/2.1.0 (Linux; U; Android 5.1; CITI 1901 4G CS1050PL Build/LMY47D)")).toBe("Android Tablet")
    expect(androidClass("", "Tesla_Tablet_785")).toBe("tablet")
    // BQ's phones are BQ-4xxx to BQ-6xxx; Digma's phone codes lead with 4 to 6 inches
    expect(androidClass("", "BQ-5732L")).toBeUndefined()
    expect(androidClass("", "CITI 609 4G CS6063ML")).toBeUndefined()
  })

  test("in-app strings keep their OS and device", () => {
    expect(parse("WhatsApp/2.6.4 iPhone_OS/4.3.3 Device/iPhone_4")).toBe("iOS Mobile")
    expect(parse("Dalvik/2.1.0 (Linux; U; Android 10; SM-G973F Build/QP1A.190711.020)")).toBe("Android Mobile")
    expect(parse("Pinterest for Android Tablet/11.42.2 (trona; 9)")).toBe("Android Tablet")
    expect(parse("FeeddlerRSS 2.4 (iPad; iPhone OS 5.1.1; en_US)")).toBe("iOS Tablet")
  })

  test("Android without the word: Adr, a Build tag in a Linux comment, Andr0id", () => {
    const gingerbread =
      "Mozilla/5.0 (Linux; U; de-de; GT-I9100 Build/GINGERBREAD) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Safari/533.1"
    expect(parse(gingerbread)).toBe("Android Mobile")
    expect(parse("UCWEB/2.0 (Linux; U; Adr 4.1.2; en-US; LT26ii) U2/1.0.0 UCBrowser/8.2.0.242 U2/1.0.0 Mobile")).toBe(
      "Android Mobile"
    )
  })

  test("workstation systems without a device class are Desktop", () => {
    expect(parse("Mozilla/5.0 (X11; OpenBSD amd64; rv:26.0) Gecko/20100101 Firefox/26.0")).toBe("OpenBSD Desktop")
    expect(parse("Mozilla/5.0 (X11; FreeBSD amd64; rv:25.0) Gecko/20100101 Firefox/25.0")).toBe("FreeBSD Desktop")
    expect(parse("Mozilla/4.04 [en] (X11; I; IRIX 5.3 IP22)")).toBe("IRIX Desktop")
    expect(parse("Mozilla/3.0 (X11; I; OSF1 V4.0 alpha)")).toBe("OSF1 Desktop")
  })
})

describe("browsers' and platforms' own conventions", () => {
  const x11 =
    "Mozilla/5.0 (X11; U; Linux x86_64; en-us) AppleWebKit/534.35 (KHTML, like Gecko) Chrome/11.0.696.65 Safari/534.35"

  test("Puffin's version suffix names the system and the device behind its Linux desktop string", () => {
    expect(parse(`${x11} Puffin/2.10990AP`)).toBe("Android Mobile")
    expect(parse(`${x11} Puffin/2.10990AT`)).toBe("Android Tablet")
    expect(parse(`${x11} Puffin/4.0.4IP`)).toBe("iOS Mobile")
    expect(parse(`${x11} Puffin/4.0.4IT`)).toBe("iOS Tablet")
    expect(parse(`${x11} Puffin/4.0.4WD`)).toBe("Windows Desktop")
    // without a suffix it is the desktop it says; a TV's own token still wins
    expect(parse(`${x11} Puffin/4.0.4`)).toBe("Linux Desktop")
    const tv =
      "Mozilla/5.0 (Linux; Android 6.0.1; 43UK35G Build/M5C14J; uk-ua) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/69.0.3497.100 Mobile Safari/537.36 Puffin/7.8.2.40664AP"
    expect(parse(tv)).toBe("Android SmartTV")
  })

  test("Windows Phone in IE's desktop mode and in UC Browser's string", () => {
    expect(
      parse("Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0; ARM; Touch; WPDesktop; Lumia 1320)")
    ).toBe("Windows Phone Mobile")
    const uc = parseUserAgent(
      "UCWEB/2.0 (Windows; U; wds 8.10; de-DE; NOKIA; RM-974_1080) U2/1.0.0 UCBrowser/4.2.1.541"
    )
    expect([uc.os.name, uc.os.version, uc.device.type]).toEqual(["Windows Phone", "8.10", "Mobile"])
  })

  test("Windows 8 and later with Microsoft's Touch token are tablets; before 8, or without it, desktops", () => {
    const ie = (nt: string, touch: string) =>
      `Mozilla/5.0 (Windows NT ${nt}; WOW64; Trident/7.0;${touch} rv:11.0) like Gecko`
    expect(parse(ie("6.3", " Touch;"))).toBe("Windows Tablet")
    expect(parse(ie("10.0", " Touch;"))).toBe("Windows Tablet")
    expect(parse(ie("6.1", " Touch;"))).toBe("Windows Desktop")
    expect(parse(ie("10.0", ""))).toBe("Windows Desktop")
  })

  test("Opera Mini and UC Browser's Java editions are handsets whatever system they name; Xbox is a console", () => {
    expect(
      parse("UCWEB/2.0 (Linux; U; Opera Mini/7.1.32052/30.3697; en-US; GT-S6812) U2/1.0.0 UCBrowser/9.0.0.366 Mobile")
    ).toBe("Linux Mobile")
    expect(parse("JUC (Linux; U; 2.3.5; zh-cn; GT-I9100; 480*800) UCWEB7.9.0.94/139/444")).toBe("Android Mobile")
    // Opera Mini's data-saving mode on a desktop says so
    const remix =
      "Browse/0.6 (Linux 3.10.0+; RemixOS 5.1.1; RemixOS SDK built for x86; en_us) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/39.0.0.0 Desktop (Opera Mini/Compression)"
    expect(parse(remix).endsWith(" Desktop")).toBe(true)
    const xbox = "Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; Xbox; Xbox One)"
    expect(parse(xbox).endsWith(" Console")).toBe(true)
  })
})

describe("token tables", () => {
  test("androidModel: the model token of the Linux/Android comment", () => {
    expect(androidModel("Mozilla/5.0 (Linux; Android 9; SM-T510 Build/PPR1.180610.011; wv) AppleWebKit/537.36")).toBe(
      "SM-T510"
    )
    expect(androidModel("Dalvik/1.6.0 (Linux; U; Android 4.4.2; ru; EK-T7020 Build/KVT49L)")).toBe("EK-T7020")
    expect(androidModel("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36")).toBeUndefined()
    expect(androidModel("curl/8.0")).toBeUndefined()
  })

  test("androidClass: TV before tablet before phone; undefined when the model says nothing", () => {
    expect(androidClass("", "TOUCAN Stick 4K")).toBe("smarttv")
    expect(androidClass("", "43LEX-7287TS2C")).toBe("smarttv")
    expect(androidClass("", "MID1024")).toBe("tablet")
    expect(androidClass("", "Coolpad 8297")).toBeUndefined()
    expect(androidClass("", "SM-A115F")).toBe("mobile")
    expect(androidClass("", "Pixel 8")).toBeUndefined()
  })

  test("isTv and isFeaturePhone", () => {
    expect(isTv("Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36", undefined)).toBe(true)
    expect(isTv("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36", "Pixel 8")).toBe(false)
    // HiSilicon's set-top-box builds name themselves in the Android version
    const hiStb = "Dalvik/2.1.0 (Linux; U; Android 4.4.2-HiSTBAndroidV5R1C01; TF-T19HD_Smart Build/JDQ39)"
    expect(isTv(hiStb, undefined)).toBe(true)
    expect(parse(hiStb)).toBe("Android SmartTV")
    expect(isFeaturePhone("MOT-V360v/08.B7.58R MIB/2.2.1 Profile/MIDP-2.0 Configuration/CLDC-1.1")).toBe(true)
    expect(isFeaturePhone("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0")).toBe(false)
  })
})
