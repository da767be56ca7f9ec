import { describe, expect, test } from "bun:test"
import { BOUND_MS } from "../../../../scripts/devicePatternCost.ts"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { branches, spread } from "../../../../scripts/deviceData/PatternFiling.ts"
import { identify, parseUserAgent, scan } from "../../../support/Devices.ts"

// Real strings from matomo-org/device-detector's Tests/fixtures (file:line at 3856a28); the expected brand and model
// are the ones that fixture gives, the name that fixture's with the brand in front where it is a bare series (issue 37)
const phones: Array<[source: string, ua: string, vendor: string, model: string, name: string]> = [
  [
    "clienthints-app.yml:3207",
    "Mozilla/5.0 (Linux; Android 14; SM-A536B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/132.0.6834.163 Mobile Safari/537.36",
    "Samsung",
    "SM-A536B",
    "Galaxy A53 5G"
  ],
  [
    "phablet.yml:7926",
    "Mozilla/5.0 (Linux; Android 11; 2201117TG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/92.0.4515.131 Mobile Safari/537.36",
    "Xiaomi",
    "2201117TG",
    "Redmi Note 11 4G"
  ],
  [
    "smartphone-27.yml:957",
    "Mozilla/5.0 (Linux; Android 11; V2111A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/87.0.4280.141 Mobile Safari/537.36 VivoBrowser/10.1.70.0",
    "Vivo",
    "V2111A",
    "Vivo Y53s"
  ],
  [
    "smartphone-35.yml:2195",
    "Mozilla/5.0 (Linux; Android 13; CPH2449) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/111.0.0.0 Mobile Safari/537.36",
    "OnePlus",
    "CPH2449",
    "OnePlus 11"
  ],
  [
    "smartphone-31.yml:7285",
    "Mozilla/5.0 (Linux; Android 12; XQ-CT54) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/102.0.0.0 Mobile Safari/537.36",
    "Sony",
    "XQ-CT54",
    "Xperia 1 IV"
  ]
]

describe("device vendor and name from the device database", () => {
  for (const [source, ua, vendor, model, name] of phones)
    test(`a model code is its brand and the name people know (${source}: ${model})`, () => {
      expect(parseUserAgent(ua).device).toEqual({ type: "Mobile", vendor, model, name })
    })

  test("Honor's models since the split from Huawei are Honor's (smartphone-31.yml:7447)", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 11; ANY-NX1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/104.0.0.0 Mobile Safari/537.36"
    expect(parseUserAgent(ua, undefined, { rules: false }).device.vendor).toBe("Huawei")
    expect(parseUserAgent(ua).device).toMatchObject({ vendor: "Honor", model: "ANY-NX1", name: "Honor X9 5G" })
  })

  test("BlackBerry, not RIM (tablet-4.yml:89, where the database says RIM)", () => {
    const ua =
      "Mozilla/5.0 (PlayBook; U; RIM Tablet OS 2.1.0; en-US) AppleWebKit/536.2+ (KHTML, like Gecko) Version/7.2.1.0 Safari/536.2+"
    expect(parseUserAgent(ua).device).toMatchObject({
      type: "Tablet",
      vendor: "BlackBerry",
      name: "BlackBerry Playbook"
    })
  })

  test("what runs iOS is Apple's, where no model code says so (browscap tests/issues/issue-1262.php)", () => {
    const ua = "WhatsApp/2.6.4 iPhone_OS/4.3.3 Device/iPhone_4"
    expect(parseUserAgent(ua, undefined, { rules: false }).device.vendor).toBe("Unknown")
    expect(parseUserAgent(ua).device).toMatchObject({ type: "Mobile", vendor: "Apple" })
  })

  test("a brand first needed after a collection still gets its models (smartphone-3.yml:8537)", async () => {
    // a brand's models are indexed on its first string, from what the build kept of the file
    identify("Mozilla/5.0 (Linux; Android 14; SM-A536B) AppleWebKit/537.36")
    await Bun.sleep(1)
    Bun.gc(true)
    await Bun.sleep(1)
    const ua =
      "Mozilla/5.0 (Linux; U; Android 4.2.2; fr-fr; DOOGEE-BIGBOY-DG600    Build/JDQ39) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30"
    expect(identify(ua)).toMatchObject({ brand: "Doogee", name: "BIGBOY DG600" })
  })

  test("a pattern's character beyond Latin-1 matches as the package wrote it (OneClick's `X-music (?:S|Ⅲ|III)`)", () => {
    for (const model of ["X-music Ⅲ", "X-MUSIC ⅲ"])
      expect(identify(`Mozilla/5.0 (Linux; Android 4.4.2; ${model} Build/KOT49H)`)?.brand).toBe("OneClick")
  })

  test("a string that names no device has no vendor and no name", () => {
    // curl's own string; Chrome 120 on Windows 10 as it sends it
    for (const ua of [
      "curl/8.4.0",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
    ])
      expect(parseUserAgent(ua).device).toMatchObject({ vendor: "Unknown", name: "Unknown" })
  })

  test("a bot that borrows a phone's string is that phone (Googlebot smartphone, Google's documentation)", () => {
    const ua =
      "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    expect(parseUserAgent(ua).bot.isBot).toBe(true)
    const phone = ua.slice(0, ua.indexOf(" (compatible;"))
    expect(parseUserAgent(phone).bot.isBot).toBe(false)
    expect(parseUserAgent(ua).device).toEqual(parseUserAgent(phone).device)
    expect(parseUserAgent(ua).device).toEqual({ type: "Mobile", vendor: "Google", model: "Nexus 5X", name: "Nexus 5X" })
  })
})

describe("the generated database", () => {
  const root = new URL("../../../../", import.meta.url).pathname
  const generated = `${root}generated/devices`

  test("is the pinned package's, as README's Built with names it", () => {
    const pinned = JSON.parse(readFileSync(`${root}package.json`, "utf8")).dependencies["node-device-detector"]
    const index = readFileSync(`${generated}/index.json`, "utf8")
    expect(JSON.parse(index).source).toStartWith(`node-device-detector ${pinned} (MIT)`)
    expect(readFileSync(`${root}README.md`, "utf8")).toContain(
      `device database (LGPL-3.0-or-later data, MIT package), pinned at ${pinned}:`
    )
  })

  test("is what the script writes from that package, nothing edited by hand", () => {
    const out = mkdtempSync(join(tmpdir(), "devices-"))
    const run = Bun.spawnSync([process.execPath, `${root}scripts/deviceData.ts`, "--force", "--out", out])
    expect(run.exitCode).toBe(0)
    const files = readdirSync(generated).sort()
    expect(readdirSync(out).sort()).toEqual(files)
    for (const file of files)
      expect(readFileSync(join(out, file)).equals(readFileSync(join(generated, file)))).toBe(true)
    // and every pattern in it was timed on strings of its own texts, none over the bound (devicePatternCost.ts)
    const worst = [...run.stdout.toString().matchAll(/^ {2}(\d+\.\d+) ms {2}/gm)].map((line) => Number(line[1]))
    expect(worst.length).toBe(5)
    for (const ms of worst) expect(ms).toBeLessThanOrEqual(BOUND_MS)
    rmSync(out, { recursive: true })
  }, 60_000)
})

// the hand-labelled fixtures' strings whole, every fourth uap-core case
const fixtureStrings = (): Array<string> => {
  const dir = new URL("../../../fixtures/", import.meta.url).pathname
  return readdirSync(dir)
    .filter((file) => file.endsWith(".jsonl"))
    .flatMap((file) =>
      readFileSync(`${dir}${file}`, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line).ua as string)
        .filter((_, i) => !file.startsWith("uap-core") || i % 4 === 0)
    )
}

describe("the index answers as a scan of every pattern in order", () => {
  // a full scan costs milliseconds a string
  test("on the strings of the project's labelled fixtures", () => {
    const strings = fixtureStrings()
    expect(strings.length).toBeGreaterThan(500)
    for (const ua of strings) expect([ua, identify(ua)]).toEqual([ua, scan(ua)])
  }, 60_000)

  test("a long alternative is spread into pieces that match where it does", () => {
    expect(spread("x(?:a|b)y", 0)).toEqual(["xay", "xby"])
    expect(spread("x(a|bc)y", 0)).toEqual(["x(a)y", "x(bc)y"])
    expect(spread("(?:p|q)?(?:a|b(?:c|d))", 0)).toEqual(["(?:p|q)?a", "(?:p|q)?bc", "(?:p|q)?bd"])
    // a quantified group, a lookaround, a backreference and a short pattern stay whole
    for (const whole of ["(?:a|b)+c", "x(?!a|b)", "(a|b)\\1", "x(?:a|b)y"])
      expect(spread(whole, whole === "x(?:a|b)y" ? 9 : 0)).toEqual([whole])
    // Huawei's 7,213 characters in the pinned package, on the fixtures' strings: a piece matches where the whole does
    const file = new URL("../../../../node_modules/node-device-detector/regexes/device/mobiles.js", import.meta.url)
    const text = readFileSync(file, "utf8")
    const huawei = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)).Huawei.regex as string
    const long = branches(huawei).find((branch) => branch.length > 7000)!
    const pieces = spread(long, 256)
    expect(pieces.length).toBeGreaterThan(100)
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(256)
    const [whole, any] = [new RegExp(long, "i"), pieces.map((piece) => new RegExp(piece, "i"))]
    const strings = [
      ...fixtureStrings(),
      "Mozilla/5.0 (Linux; Android 10; JSN-L21) AppleWebKit/537.36",
      "HUAWEIBZT-W09"
    ]
    expect(strings.filter((ua) => whole.test(ua)).length).toBeGreaterThanOrEqual(5)
    for (const ua of strings) expect([ua, any.some((piece) => piece.test(ua))]).toEqual([ua, whole.test(ua)])
  })
})
