/**
 * The device database's class decides `device.type` where it names the model. Real strings: the fixtures of
 * matomo-org/device-detector at 3856a28 (Tests/fixtures/<file>:<line>), browscap/browscap at 6c0c920
 * (tests/issues/<file>) and WhichBrowser/Parser at c65ad41 (tests/data/<file>:<line>); each answers the class its
 * fixture gives.
 */
import { describe, expect, test } from "bun:test"
import { parseUserAgent } from "../../../support/Devices.ts"

const named: Array<[source: string, ua: string, type: string, vendor: string]> = [
  // tablets whose browser says "Mobile Safari"
  [
    "browscap issue-1387.php",
    "Mozilla/5.0 (Linux; Android 5.0.2; LIFETAB_P831X.2 Build/LRX22L; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/52.0.2743.98 Mobile Safari/537.36 BingWeb/6.5.25183196",
    "Tablet",
    "Medion"
  ],
  [
    "tablet-2.yml:2091",
    "Mozilla/5.0 (Linux; U; Android 4.0.4; uk-ua; ImPAD 1113 Build/IMM76D) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
    "Tablet",
    "Impression"
  ],
  [
    "tablet-8.yml:147",
    "Mozilla/5.0 (Linux; Android 7.0; SYMTAB25) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Mobile Safari/537.36",
    "Tablet",
    "Symphony"
  ],
  // TV boxes
  [
    "tv-5.yml:1437",
    "Mozilla/5.0 (Linux; Android 12; MagentaTV ONE Build/STTC.230104.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/132.0.6834.163 Mobile Safari/537.36",
    "SmartTV",
    "Magenta"
  ],
  [
    "tv-1.yml:6859",
    "Mozilla/5.0 (Linux; Android 10; iconBIT XDS1100) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/89.0.4389.72 Safari/537.36",
    "SmartTV",
    "IconBIT"
  ],
  [
    "tv-4.yml:5668",
    "Mozilla/5.0 (Linux; Android 10; NETTA 3 Build/QP1A.191105.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.105 Mobile Safari/537.36",
    "SmartTV",
    "GoldMaster"
  ],
  [
    "tv-2.yml:2143",
    "Mozilla/5.0 (Linux; Android 9; Netta 3.100m) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/102.0.0.0 Safari/537.36",
    "SmartTV",
    "GoldMaster"
  ],
  [
    "wearable.yml:2024",
    "Mozilla/5.0 (Linux; Android 8.0.0; Ticwatch S) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/77.0.3865.92 Odd/47.2.1.1 Mobile Safari/537.36",
    "Wearable",
    "Mobvoi"
  ],
  // a car head unit, a smart display, a smart speaker
  [
    "car_browser.yml:903",
    "Mozilla/5.0 (Linux; arm; Android 9; MPC-100) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 YaBrowser/23.5.3.75.00 SA/3 Mobile Safari/537.36",
    "Embedded",
    "Prology"
  ],
  [
    "smart_display.yml:183",
    "Mozilla/5.0 (Linux; Android 8.1.0; XDH-0F-A1 Build/O11019; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/85.0.4183.99 Mobile Safari/537.36",
    "Embedded",
    "Xiaodu"
  ],
  [
    "smart_speaker.yml:333",
    "Mozilla/5.0 (Linux; arm; Android 9; yandexstation_2 Build/PPR1.180610.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.5993.550 Mobile Safari/537.36",
    "Embedded",
    "Yandex"
  ],
  [
    "console.yml:616",
    "Mozilla/5.0 (Linux; Android 12; RG405V) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.96 Mobile Safari/537.36",
    "Console",
    "ANBERNIC"
  ],
  // a rugged phone whose lower-cased string lost Chrome's "Mobile" word
  [
    "smartphone-15.yml:4300",
    "mozilla/5.0 (linux; android 9; armor_x6) applewebkit/537.36 (khtml, like gecko) chrome/83.0.4103.106 mobile safari/537.36",
    "Mobile",
    "Ulefone"
  ]
]

describe("the database's class decides the type of a device it names", () => {
  for (const [source, ua, type, vendor] of named)
    test(`${vendor} (${source}) is ${type}`, () => {
      expect(parseUserAgent(ua).device).toMatchObject({ type, vendor })
    })
})

describe("where the string decides", () => {
  test("a brand the database knows but no model of it: the string's type (browscap issue-635.php)", () => {
    // teXet's brand is filed as tablets; its X-navi is a phone, and the string says Mobile
    const ua =
      "Mozilla/5.0 (Linux; Android 4.2.2; teXet X-navi Build/JDQ39) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/40.0.2214.115 YaBrowser/15.2.2214.3725.00 Mobile Safari/537.36"
    expect(parseUserAgent(ua).device).toMatchObject({ type: "Mobile", vendor: "teXet" })
  })

  test("a headset, Matomo's wearable, is the contract's XR (wearable.yml:1018)", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 10; Quest 2) AppleWebKit/537.36 (KHTML, like Gecko) OculusBrowser/13.0.0.2.16.259832224 SamsungBrowser/4.0 Chrome/87.0.4280.66 VR Safari/537.36"
    expect(parseUserAgent(ua).device).toMatchObject({ type: "XR", vendor: "Meta", name: "Quest 2" })
  })

  test("a TV's token outranks a phone's class (WhichBrowser television/browser-opera.yaml:34)", () => {
    // Sony's TV browser names the set's code, which the database files under Sony's phones
    const ua =
      "Opera/9.80 (Linux armv7l; InettvBrowser/2.2 (00014A;SonyDTV115;0002;0100) ; CC/ARG) Presto/2.12.407 Version/12.50"
    expect(parseUserAgent(ua).device).toMatchObject({ type: "SmartTV", vendor: "Sony" })
  })

  test("a phablet whose string says tablet is a tablet (browscap issue-1347.php: Asus Fonepad)", () => {
    const ua =
      "Mozilla/5.0 (Linux; U; Android 4.1.2; ru-ru; ME371MG Build/JZO54K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30 GSA/5.7.14.16.x86"
    expect(parseUserAgent(ua).device).toMatchObject({ type: "Tablet", vendor: "Asus", name: "Fonepad" })
  })
})

describe("a device its string names by the model's name alone", () => {
  test("Amazon's Fire Phone, whose string names no brand and no code the patterns know (issue 46's string)", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 4.4.4; Fire Phone Build/KTU84Q) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/34.0.0.0 Mobile Safari/537.36"
    expect(parseUserAgent(ua).device).toEqual({
      type: "Mobile",
      vendor: "Amazon",
      model: "Fire Phone",
      name: "Fire Phone"
    })
  })

  test("a name that more than one brand gives names no brand (Aura: SFR's and bq's)", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 10; Aura Build/QP1A.190711.020) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.93 Mobile Safari/537.36"
    expect(parseUserAgent(ua).device).toMatchObject({ vendor: "Unknown", model: "Aura", name: "Unknown" })
  })
})
