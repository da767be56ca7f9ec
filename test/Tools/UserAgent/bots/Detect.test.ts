import { describe, expect, test } from "bun:test"
import crawlers from "crawler-user-agents"
import { isbot, isbotMatch, isbotPatterns, list } from "isbot"
import { readFileSync } from "node:fs"
import { isAIAssistant, isAICrawler } from "ua-parser-js/bot-detection"
import { Bots } from "ua-parser-js/extensions"
import UserAgent from "user-agents"
import { isBrowserFamily } from "../../../../src/Tools/UserAgent/Families.ts"
import { botMatch, detectBot, notBotPatterns, shapePatterns } from "../../../../src/Tools/UserAgent/bots/Detect.ts"
import { parseUserAgent } from "../../../../src/Tools/UserAgent/parse/Normalise.ts"

interface Labelled {
  readonly ua: string
  readonly browser: string
  readonly deviceType: string
  readonly bot: boolean
  readonly source: string
}
const cases: ReadonlyArray<Labelled> = readFileSync(new URL("../../../fixtures/bots.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line))

const crawlerStrings = [...new Set(crawlers.flatMap((c) => c.instances))]

const trafficStrings = (): Array<string> => {
  const strings = new Set<string>()
  UserAgent.random((entry: { userAgent: string }) => {
    strings.add(entry.userAgent)
    return true
  })
  return [...strings]
}

describe("bot flag", () => {
  test("every case of test/fixtures/bots.jsonl: a browser with an add-on's token is a person, a bot stays one", () => {
    for (const c of cases) {
      const info = parseUserAgent(c.ua)
      // "Other": a bot is reported by its own name, outside the browser families
      const browser = isBrowserFamily(info.browser.name) ? info.browser.name : "Other"
      expect({ ua: c.ua, bot: info.bot.isBot, browser, deviceType: info.device.type as string }).toEqual({
        ua: c.ua,
        bot: c.bot,
        browser: c.browser,
        deviceType: c.deviceType
      })
    }
  })

  test("the patterns left out are still isbot's, and each one alone flags a real browser", () => {
    for (const pattern of notBotPatterns) {
      expect(list).toContain(pattern)
      const browser = cases.find((c) => c.bot === false && new RegExp(pattern, "i").test(c.ua))
      expect(browser).toBeDefined()
    }
  })

  test("the shape patterns are isbot's; alone they flag a shapeless string, never a browser-shaped one", () => {
    for (const pattern of shapePatterns) expect(list).toContain(pattern)
    const people = cases.filter((c) => !c.bot && isbotPatterns(c.ua).every((p) => shapePatterns.includes(p)))
    expect(people.length).toBeGreaterThanOrEqual(4)
    for (const c of people) expect(botMatch(c.ua)).toBeNull()
    // the same words without a browser's shape, or beside a bot's name, are still bots
    for (const ua of [
      "Java/1.8.0_151",
      "asdf",
      "Discovery/1.0; indexer",
      "Mozilla/5.0 (Windows NT 10.0) Gecko/20100101 discovery-bot"
    ])
      expect(detectBot(ua).isBot).toBe(true)
  })

  test("the match is isbot's own wherever no left-out pattern is involved", () => {
    const ordinary = [...crawlerStrings, ...cases.map((c) => c.ua)].filter(
      (ua) =>
        !isbotPatterns(ua).some((p) => notBotPatterns.includes(p)) &&
        !(isbotPatterns(ua).length > 0 && isbotPatterns(ua).every((p) => shapePatterns.includes(p)))
    )
    expect(ordinary.length).toBeGreaterThan(1900)
    for (const ua of ordinary) expect(botMatch(ua)).toBe(isbotMatch(ua))
    expect(botMatch("")).toBeNull()
  })

  // crawler-user-agents 1.60.0 (a pinned devDependency): 2,118 distinct strings. isbot 5.2.3 misses 9 (in-app
  // browsers of Instagram and Facebook, Electron editors, Fluid, GTmetrix, Miniature.io, YLT, one TSM string); the
  // patterns left out cost none of the others.
  test("crawler-user-agents: every instance isbot catches is still caught, at most 9 of 2,118 missed", () => {
    const lost = crawlerStrings.filter((ua) => isbot(ua) && !detectBot(ua).isBot)
    expect(lost).toEqual([])
    const missed = crawlerStrings.filter((ua) => !detectBot(ua).isBot)
    expect(crawlerStrings.length).toBeGreaterThanOrEqual(2118)
    expect(missed.length).toBeLessThanOrEqual(9)
  })

  test("user-agents traffic data (real browsers): no string is flagged as a bot", () => {
    const strings = trafficStrings()
    expect(strings.length).toBeGreaterThan(500)
    expect(strings.filter((ua) => detectBot(ua).isBot)).toEqual([])
  })
})

describe("AI bots", () => {
  // detectBot asks ua-parser-js's AI checks only where its bot extension's reading could name an AI bot: that holds
  // while every pattern of the extension gives one of these types, which an upgrade of the library could change
  test("every pattern of ua-parser-js's bot extension gives a bot type", () => {
    const browser = Array.isArray(Bots) ? [] : (Bots.browser ?? [])
    expect(browser.length).toBeGreaterThan(0)
    // pairs: the patterns, then what a match gives (`[TYPE, "crawler"]` among them)
    for (let i = 1; i < browser.length; i += 2) {
      const type = browser[i]!.find((prop) => Array.isArray(prop) && prop[0] === "type")
      expect(Array.isArray(type) ? type[1] : undefined).toBeOneOf(["cli", "crawler", "fetcher", "library"])
    }
  })

  test("crawler-user-agents: a bot is in category ai exactly where ua-parser-js's own checks call it one", () => {
    const ai = crawlerStrings.filter((ua) => isAICrawler(ua) || isAIAssistant(ua))
    expect(ai.length).toBeGreaterThan(50)
    const bots = crawlerStrings.filter((ua) => detectBot(ua).isBot)
    expect(bots.filter((ua) => detectBot(ua).category === "ai")).toEqual(bots.filter((ua) => ai.includes(ua)))
  })
})
