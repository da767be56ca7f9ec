/**
 * Issue 20, second round: device classes by the string's own tokens and the conventions of platforms and vendors.
 * Each case is a real string from another project's labelled suite, named with its source (browscap/browscap
 * tests/issues, MIT; WhichBrowser/Parser tests/data, MIT; matomo-org/device-detector Tests/fixtures, LGPL-3.0), and
 * asserts that project's label.
 */
import { describe, expect, test } from "bun:test"
import { parseUserAgent } from "../../../../src/Tools/UserAgent/parse/Normalise.ts"

const device = (ua: string): string => parseUserAgent(ua).device.type

describe("the platform's own words", () => {
  test("Android 3 (Honeycomb) ran on tablets only, whatever the browser says", () => {
    // browscap issue-1219 (a Motorola Xoom)
    const xoom =
      "Mozilla/5.0 (Linux; Android 3.1; pt-PT; MZ606 Build/UMWB8E) AppleWebKit/535.19 (KHTML, like Gecko) Chrome/18.0.1025.166 Mobile Safari/535.19"
    expect(device(xoom)).toBe("Tablet")
  })

  test("Yandex's apps name their platform 'apad' on a tablet", () => {
    // Matomo Tests/fixtures/tablet-10.yml
    const apad =
      "Mozilla/5.0 (Linux; arm_64; Android 12; P30S_EEA) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 YaApp_Android/23.52/apad YaSearchBrowser/23.52/apad BroPP/1.0 SA/3 Mobile Safari/537.36"
    expect(device(apad)).toBe("Tablet")
  })

  test("an iOS app's own string names no device: a phone, as most iOS devices are", () => {
    // WhichBrowser tests/data/mobile/app-social.yaml
    expect(device("Pinterest/3.3.3 CFNetwork/609.1.4 Darwin/13.0.0")).toBe("Mobile")
    // an iPad app still says so (uap-core)
    expect(device("DEPoker-iPad/1.0.2 CFNetwork/548.1.4 Darwin/11.0.0")).toBe("Tablet")
  })
})

describe("a tablet line the library names with its maker", () => {
  test("outranks the browser's 'Mobile' word; Acer's guess from any 'A' and three digits does not", () => {
    // Matomo Tests/fixtures/tablet-11.yml (a Huawei MatePad), tablet-12.yml (a Xiaomi Pad)
    expect(
      device(
        "Mozilla/5.0 (Linux; Android 14; DBR-W10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36"
      )
    ).toBe("Tablet")
    const xiaomi =
      "Mozilla/5.0 (Linux; U; Android 14; en-US; 24076RP19G Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UCBrowser/13.7.8.1322 Mobile Safari/537.36"
    expect(device(xiaomi)).toBe("Tablet")
    // Matomo Tests/fixtures/smartphone-1.yml: a phone whose model the library files under Acer's tablets
    const a571 =
      "Mozilla/5.0 (Linux; Android 5.1.1; A571VL Build/LMY47V) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/55.0.2883.91 Mobile Safari/537.36"
    expect(device(a571)).toBe("Mobile")
  })
})

describe("watches by their own tokens", () => {
  test("watchOS and Apple's Watch model names, Samsung's Gear watches, Android watches named Watch", () => {
    // Matomo Tests/fixtures/mobile_apps.yml and wearable.yml; WhichBrowser tests/data/watch/os-android-wear.yaml
    expect(device("BBCNewsUKWatchApp/4.3.0 (Watch1,2; watchOS 3.2.2)")).toBe("Wearable")
    const gear =
      "Mozilla/5.0 (Linux; Tizen 2.2.1.3; SAMSUNG SM-R750A) AppleWebKit/538.1 (KHTML, like Gecko) Version/2.2.1.3 Mobile Safari/538.1"
    expect(device(gear)).toBe("Wearable")
    const gWatch =
      "Mozilla/5.0 (Linux; Android 4.4; G Watch Build/KMV78Y) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/19.77.34.5 Mobile Safari/537.36"
    expect(device(gWatch)).toBe("Wearable")
  })
})

describe("phone lines whose browser leaves 'Mobile' out (its desktop mode)", () => {
  test("Nexus phones, Galaxy Note phones, LG's and Motorola's phones", () => {
    // browscap issue-1413
    const nexusS =
      "Mozilla/5.0 (Linux; U; Android 4.2.2; ru-ru; Nexus S Build/JDQ39) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30"
    expect(device(nexusS)).toBe("Mobile")
    const note =
      "Mozilla/5.0 (Linux; Android 4.1.2; GT-N7000 Build/JZO54K) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Safari/537.36"
    expect(device(note)).toBe("Mobile")
    const lg =
      "Mozilla/5.0 (Linux; Android 4.0.3; LG-P700 Build/IML74K) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Safari/537.36"
    expect(device(lg)).toBe("Mobile")
    const moto =
      "Mozilla/5.0 (Linux; Android 4.1.2; XT907 Build/RAGE M v1.2) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Safari/537.36"
    expect(device(moto)).toBe("Mobile")
    // a custom ROM's name after the model is not the model (Matomo Tests/fixtures/phablet.yml)
    const rom =
      "Mozilla/5.0 (Linux; U; Android 4.2.1; ru-ru; GT-N7000 Build/JOP40D; CyanogenMod-JellyBeer-v3.55) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30"
    expect(device(rom)).toBe("Mobile")
    // Samsung's Note tablets stay tablets (Matomo Tests/fixtures/tablet.yml)
    const noteTablet =
      "Mozilla/5.0 (Linux; Android 4.4.2; GT-N8000 Build/KOT49H) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/34.0.1847.114 Safari/537.36"
    expect(device(noteTablet)).toBe("Tablet")
  })
})

describe("desktops the library took for phones", () => {
  test("on Windows a PC maker's name or a language tag is no handset's", () => {
    // Matomo Tests/fixtures/desktop.yml and desktop-1.yml
    const oneNote =
      "Microsoft Office OneNote/16.0.11601.20130 (Windows/10.0; Desktop x64; en-GB; Desktop app; Dell Inc./OptiPlex 3050)"
    expect(device(oneNote)).toBe("Desktop")
    expect(device("Opera/9.46.(Windows 95; lg-UG) Presto/2.9.172 Version/11.00")).toBe("Desktop")
    // a handset's words keep it a phone (WhichBrowser: Opera in a Windows Mobile phone's desktop mode)
    expect(device("HTC_P3700 Opera/9.50 (Windows NT 5.1; U; xx)")).toBe("Mobile")
  })
})

describe("laptops that run Android", () => {
  test("Chromebooks and the makers' laptop lines are desktops", () => {
    // Matomo Tests/fixtures/desktop.yml
    const eliteBook =
      "Mozilla/5.0 (Linux; Android 7.1.2; HP EliteBook 820 G2) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.185 Safari/537.36"
    expect(device(eliteBook)).toBe("Desktop")
    expect(device("Bookshelf-Android/10.0.3 (Android OS/9; Samsung Chromebook 3) vitalsource")).toBe("Desktop")
  })
})

describe("the string's own device words", () => {
  test("a TV platform's device triple (maker, model, wired or wireless) is a TV", () => {
    // Matomo Tests/fixtures/tv-1.yml; WhichBrowser tests/data/television/google.yaml
    const vizio =
      "Opera/9.80 (Linux armv7l) Presto/2.12.407 Version/12.51 , D50u-D1-UHD/V1.5.16-UHD (Vizio, D50u-D1, Wireless)"
    expect(device(vizio)).toBe("SmartTV")
    const fiber = "Cinnamon/1.0.0.0, GFHD100/gfibertv-42-pre0-140-gf65a138-sm (Google Fiber, GFHD100, wired)"
    expect(device(fiber)).toBe("SmartTV")
  })

  test("Android TV's build tags (a T after the release letter) are a TV's, whatever the model", () => {
    // Matomo Tests/fixtures/tv-1.yml; a phone's build tag stays a phone's (Matomo Tests/fixtures/smartphone-10.yml)
    expect(device("Dalvik/2.1.0 (Linux; U; Android 9; S70CDS Build/PTT1.190716.001)")).toBe("SmartTV")
    expect(device("Dalvik/2.1.0 (Linux; U; Android 9; Nokia 3.1 Plus Build/PPR1.180610.011)")).toBe("Mobile")
  })

  test("Windows 10 Mobile's Edge in desktop mode names the handset after ARM", () => {
    // Matomo Tests/fixtures/phablet.yml
    const lumia =
      "Mozilla/5.0 (Windows NT 10.0; ARM; Lumia 640 XL Dual SIM) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/46.0.2486.0 Safari/537.36 Edge/13.10586"
    expect(device(lumia)).toBe("Mobile")
    // Windows RT with Touch stays a tablet (browscap issue-172)
    expect(device("Mozilla/5.0 (Windows NT 6.3; ARM; Trident/7.0; Touch; rv:11.0) like Gecko")).toBe("Tablet")
  })
})

describe("handsets that looked like bots or named no class", () => {
  const summary = (ua: string): string => {
    const info = parseUserAgent(ua)
    return `${info.device.type} bot=${info.bot.isBot}`
  }

  test("a feature phone's own words outrank isbot's shape patterns", () => {
    // WhichBrowser tests/data/mobile/browser-au.yaml; Matomo Tests/fixtures/feature_phone.yml
    expect(summary("LG-G3100 AU/4.10")).toBe("Mobile bot=false")
    expect(summary("Karbonn K595 WAP-Browser/1.0.0")).toBe("Mobile bot=false")
  })

  test("Palm's webOS is a phone", () => {
    // WhichBrowser tests/data/mobile/os-webos.yaml; Matomo Tests/fixtures/smartphone-11.yml
    const pre =
      "Mozilla/5.0 (Linux; webOS/2.2.0; U; xx) AppleWebKit/534.6 (KHTML, like Gecko) webOSBrowser/221.54 Safari/534.6 Pre/3.0"
    expect(summary(pre)).toBe("Mobile bot=false")
    const pixi =
      "Mozilla/5.0 (webOS/1.4.5; U; ru-RU) AppleWebKit/532.2 (KHTML, like Gecko) Version/1.0 Safari/532.2 Pixi/1.0"
    expect(summary(pixi)).toBe("Mobile bot=false")
  })
})

describe("e-readers and Kindle tablets by their own tokens", () => {
  test("Silk's acceleration (Kindle Fire only) and PocketBook's token are tablets, whatever the browser says", () => {
    // Matomo Tests/fixtures/tablet-2.yml and tablet-10.yml
    const kindle =
      "Mozilla/5.0 (Linux; U; Android 2.3.4; en-us; Silk/1.0.22.153_10033210) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/533.1 Silk-Accelerated=true"
    expect(device(kindle)).toBe("Tablet")
    const pocketBook =
      "Mozilla/5.0 (Linux; Android 8.0.0; ru_RU) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/61.0.3163.140 Mobile Safari/537.36 PocketBook/627 (screen 758x1024; FW U627.5.18.453)"
    expect(device(pocketBook)).toBe("Tablet")
  })
})
