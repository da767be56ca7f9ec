/**
 * `parse --jobs N`: N-1 worker threads parse the agents while the main thread reads on, and what is written is byte
 * for byte what one thread writes: every line in order, its number counted from the file's start, error lines, CSV
 * rows and the summary included; the exit status and stderr's counts too.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runOnce } from "../support/Process.ts"

setDefaultTimeout(120_000)

const dir = mkdtempSync(join(tmpdir(), "tools-api-jobs-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "kube-probe/1.29",
  "-"
]

// many blocks of input, 900 agents first seen far into it: lines with and without \r, a line not in the format, one
// without a user agent, the last without a line break
const lines = Array.from({ length: 24_000 }, (_, i) => {
  if (i % 5_001 === 5_000) return "not a log line"
  const ua = i % 7 === 3 ? `Agent${i % 900}/1.${i % 13}` : AGENTS[i % AGENTS.length]!
  const time = `2${i % 7}/Nov/2026:${String(i % 24).padStart(2, "0")}:00:00 +0000`
  return `10.0.${i % 250}.1 - - [${time}] "GET /p/${i % 37}?x=${i} HTTP/1.1" ${i % 11 === 0 ? 404 : 200} 1 "-" "${ua}"${i % 3 === 0 ? "\r" : ""}`
})
const log = join(dir, "access.log")
writeFileSync(log, lines.join("\n"))

for (const args of [[], ["--format", "csv"], ["--summary", "--json"], ["--summary"]]) {
  test(`--log combined ${args.join(" ")}: --jobs 2 writes what --jobs 1 writes, byte for byte`, async () => {
    const one = await runOnce({}, ["parse", "--log", "combined", ...args, "--jobs", "1", log])
    const two = await runOnce({}, ["parse", "--log", "combined", ...args, "--jobs", "2", log])
    expect(one.code).toBe(1) // the lines not in the format
    expect(two.code).toBe(one.code)
    expect(two.stderr).toBe(one.stderr)
    expect(two.stdout.length).toBe(one.stdout.length)
    expect(two.stdout === one.stdout).toBe(true)
    if (args.length === 0) {
      const numbers = one.stdout
        .trimEnd()
        .split("\n")
        .map((text) => JSON.parse(text).line)
      // every line answered once, in order, but those without a user agent
      expect(numbers.length).toBe(lines.length - lines.filter((text) => /"-"\r?$/.test(text)).length)
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
      expect(numbers.at(-1)).toBe(lines.length)
    }
  })
}

test("--jobs 3: two workers share the agents out, and what is written is still what --jobs 1 writes", async () => {
  const one = await runOnce({}, ["parse", "--log", "combined", "--jobs", "1", log])
  const three = await runOnce({}, ["parse", "--log", "combined", "--jobs", "3", log])
  expect(three.code).toBe(one.code)
  expect(three.stderr).toBe(one.stderr)
  expect(three.stdout === one.stdout).toBe(true)
})

test("--jobs 2 reads stdin too, and an agent holding an escaped line break is answered as one process answers it", async () => {
  // nginx writes a `\n` in a header as `\x0A`; Apache as `\n`: the agent holds a line break once unescaped
  const escaped = ["Agent\\x0ATwo/1.0", "Agent\\nThree/2.0"].map(
    (ua, i) => `10.0.0.${i} - - [26/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "${ua}"`
  )
  const input = [...lines.slice(0, 6_000), ...escaped, ...lines.slice(6_000, 9_000)].join("\n")
  const one = await runOnce({}, ["parse", "--log", "combined", "--jobs", "1"], undefined, input)
  const two = await runOnce({}, ["parse", "--log", "combined", "--jobs", "2"], undefined, input)
  expect(two.code).toBe(one.code)
  expect(two.stderr).toBe(one.stderr)
  expect(two.stdout === one.stdout).toBe(true)
  expect(one.stdout).toContain('"userAgent":"Agent\\nTwo/1.0"')
})

test("--jobs 2 --summary counts lines in the input's order, though a block of known agents is parsed before one of new", async () => {
  // each hour opens with an agent never seen (its block waits for a worker), then blocks of one known desktop agent:
  // an hour's device types are listed in the order its lines first name them
  const hours = Array.from({ length: 40 }, (_, hour) => {
    const time = `${20 + Math.floor(hour / 24)}/Nov/2026:${String(hour % 24).padStart(2, "0")}`
    const mobile = `Mozilla/5.0 (Linux; Android 13; SM-A5${hour}6B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36`
    return Array.from({ length: 1_000 }, (_, i) => {
      const ua = i === 0 ? mobile : AGENTS[0]!
      return `10.0.0.1 - - [${time}:00:${String(i % 60).padStart(2, "0")} +0000] "GET / HTTP/1.1" 200 1 "-" "${ua}"`
    })
  })
  const ordered = join(dir, "ordered.log")
  writeFileSync(ordered, `${hours.flat().join("\n")}\n`)
  const args = ["parse", "--log", "combined", "--summary", "--json"]
  const one = await runOnce({}, [...args, "--jobs", "1", ordered])
  const two = await runOnce({}, [...args, "--jobs", "2", ordered])
  expect(one.code).toBe(0)
  const buckets = JSON.parse(one.stdout).timeline.buckets
  expect(buckets.map((bucket: { deviceType: object }) => Object.keys(bucket.deviceType))).toEqual(
    hours.map(() => ["Mobile", "Desktop"])
  )
  expect(two.stdout === one.stdout).toBe(true)
})
