import { expect, test } from "bun:test"
import crawlers from "crawler-user-agents"
import { UAParser } from "ua-parser-js"
import { Bots } from "ua-parser-js/extensions"
import UserAgent from "user-agents"
import { libraryParser, reused } from "../../../../src/Tools/UserAgent/parse/Reused.ts"
import { appExtensions, appParser } from "../../../../src/Tools/UserAgent/parse/Tokens.ts"

const strings = (): Array<string> => {
  const all = new Set(crawlers.flatMap((c) => c.instances))
  UserAgent.random((entry: { userAgent: string }) => {
    all.add(entry.userAgent)
    return true
  })
  return [...all]
}

test("a parser reused string after string reads each as a parser made for it does", () => {
  const bots = reused(() => new UAParser(Bots))
  const all = strings()
  expect(all.length).toBeGreaterThan(2_500)
  // one after another, so what one string left in a parser would show in the next one's answer
  for (const ua of all) {
    expect(appParser(ua).getResult()).toEqual(new UAParser(ua, appExtensions).getResult())
    expect(libraryParser(ua).getResult()).toEqual(new UAParser(ua).getResult())
    expect(bots(ua).getBrowser()).toEqual(new UAParser(ua, Bots).getBrowser())
  }
})
