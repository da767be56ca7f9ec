/**
 * `parse` keeps each distinct agent's answer: a log's agent that recurs is parsed once, however many lines and blocks
 * carry it, while every line keeps its own number and log fields, and an agent the API refuses is refused each time.
 */
import { expect, test } from "bun:test"
import { Effect } from "effect"
import { makeAnswer } from "../../src/Cli/parse/Answer.ts"
import type { UserAgentInfo } from "../../src/Tools/UserAgent/Schemas.ts"

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
const line = (ua: string, second: number, path = "/") =>
  `203.0.113.1 - - [26/Nov/2026:10:00:0${second} +0000] "GET ${path} HTTP/1.1" 200 1 "-" "${ua}"`

const info = (userAgent: string): UserAgentInfo => ({
  userAgent,
  browser: { name: "Chrome", version: "124.0" },
  os: { name: "Windows", version: "10" },
  device: { type: "Desktop", vendor: "Unknown", model: "Unknown", name: "Unknown" },
  cpu: { architecture: "amd64" },
  engine: { name: "Blink", version: "124.0" },
  bot: { isBot: false, name: "Unknown", category: "Unknown" }
})

/** A block's text, answered as Read.ts answers it once its agents are parsed. */
const answered = <E>(block: Effect.Effect<() => string, E>) =>
  Effect.runPromise(Effect.map(block, (answer) => answer()))

const counting = () => {
  const parsed: Array<string> = []
  const parse = (userAgents: ReadonlyArray<string>) =>
    Effect.sync(() => {
      parsed.push(...userAgents)
      return userAgents.map(info)
    })
  return { parsed, parse }
}

test("a recurring agent is parsed once across lines and blocks, each line with its own number and fields", async () => {
  const { parsed, parse } = counting()
  const { block } = makeAnswer(parse, { combined: true, format: "json", summary: undefined, known: 100 })
  const first = await answered(block("access.log", 1, [line(CHROME, 1, "/a"), line(CHROME, 2, "/b")]))
  const second = await answered(block("access.log", 3, [line(CHROME, 3, "/c")]))
  expect(parsed).toEqual([CHROME])
  const lines = `${first}${second}`
    .trimEnd()
    .split("\n")
    .map((text) => JSON.parse(text))
  expect(lines.map((one) => [one.line, one.log.path, one.browser.name])).toEqual([
    [1, "/a", "Chrome"],
    [2, "/b", "Chrome"],
    [3, "/c", "Chrome"]
  ])
  expect(lines[0]).toEqual({
    file: "access.log",
    line: 1,
    log: { client: "203.0.113.1", time: "2026-11-26T10:00:01+00:00", method: "GET", path: "/a", status: 200 },
    ...info(CHROME)
  })
})

test("an agent the API refuses is refused on each of its lines, and never parsed", async () => {
  const { parsed, parse } = counting()
  const answer = makeAnswer(parse, { combined: true, format: "json", summary: undefined, known: 100 })
  const refused = "a".repeat(2_049) // over the API's 2,048 characters
  const out = await answered(answer.block(undefined, 1, [line(refused, 1), line(refused, 2)]))
  expect(parsed).toEqual([])
  expect(answer.counts.failed).toBe(2)
  expect(
    out
      .trimEnd()
      .split("\n")
      .map((text) => JSON.parse(text).error.code)
  ).toEqual(["invalid_request", "invalid_request"])
})

test("UA_CACHE_SIZE=0 keeps none: an agent is parsed once a block", async () => {
  const { parsed, parse } = counting()
  const { block } = makeAnswer(parse, { combined: true, format: "csv", summary: undefined, known: 0 })
  await answered(block("access.log", 1, [line(CHROME, 1), line(CHROME, 2)]))
  await answered(block("access.log", 3, [line(CHROME, 3)]))
  expect(parsed).toEqual([CHROME, CHROME])
})
