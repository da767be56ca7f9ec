/**
 * `parse --html FILE` in headless Chromium (Debian's chromium, driven by puppeteer-core), every request blocked: the
 * page draws every chart from what it carries, and each chart's numbers, and its table's, are the ones
 * `--summary --json` gives for the same log.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import puppeteer, { type Browser } from "puppeteer-core"
import { TOP } from "../../src/Cli/report/Charts.ts"
import { runOnce } from "../support/Process.ts"

setDefaultTimeout(90_000)

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "kube-probe/1.29",
  "Mozilla/5.0 zgrab/0.x",
  "curl/8.5.0"
]
const PATHS = ["/", "/products?id=1", "/cart", "/healthz", "/.env", "/login"]
const STATUSES = [200, 200, 200, 301, 404, 500]

let dir: string
let browser: Browser
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tools-api-report-"))
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
  })
})
afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** What the page's script made of each canvas, read inside the browser (this project's types have no DOM). */
interface Drawn {
  readonly id: string
  readonly labels: ReadonlyArray<string>
  readonly data: ReadonlyArray<ReadonlyArray<number>>
  readonly inked: number
  readonly table: ReadonlyArray<ReadonlyArray<string>>
}
declare const document: { querySelectorAll: (selector: string) => Iterable<any>; body: any }
declare const Chart: { getChart: (canvas: unknown) => any }

test("every chart is drawn, offline, with the numbers of --summary --json, its table too", async () => {
  // three hours of traffic, every agent, path and status mixed
  const lines = Array.from({ length: 300 }, (_, i) => {
    const ua = AGENTS[(i * 7) % AGENTS.length]!
    const time = `26/Nov/2026:${String(9 + (i % 3)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:00 +0000`
    return `10.0.0.${i % 250} - - [${time}] "GET ${PATHS[i % PATHS.length]} HTTP/1.1" ${STATUSES[(i * 5) % STATUSES.length]} 99 "-" "${ua}"`
  })
  const log = join(dir, "access.log")
  writeFileSync(log, `${lines.join("\n")}\n`)
  const html = join(dir, "report.html")
  const made = await runOnce({}, ["parse", "--log", "combined", "--html", html, "--json", log])
  expect(made.code).toBe(0)
  const summary = JSON.parse(made.stdout)
  expect(JSON.parse((await runOnce({}, ["parse", "--log", "combined", "--summary", "--json", log])).stdout)).toEqual(
    summary
  )
  expect(readFileSync(html, "utf8")).not.toMatch(/(?:src|href)=["']?(?:https?:)?\/\//)

  const page = await browser.newPage()
  const requests: Array<string> = []
  const errors: Array<string> = []
  await page.setRequestInterception(true)
  page.on("request", (request) => {
    if (!request.url().startsWith("file:")) requests.push(request.url())
    void (request.url().startsWith("file:") ? request.continue() : request.abort())
  })
  page.on("pageerror", (error) => errors.push(String(error)))
  await page.setViewport({ width: 1280, height: 900 })
  await page.goto(`file://${html}`, { waitUntil: "load" })
  await page.waitForFunction(() => document.body.dataset.drawn !== undefined)
  const drawn: Array<Drawn> = await page.evaluate(() =>
    [...document.querySelectorAll("canvas[data-chart]")].map((canvas) => {
      const chart = Chart.getChart(canvas)
      const { width, height } = canvas
      const pixels = canvas.getContext("2d").getImageData(0, 0, width, height).data
      let inked = 0
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) inked++
      const rows = [...document.querySelectorAll(`table[data-table="${canvas.dataset.chart}"] tbody tr`)]
      return {
        id: canvas.dataset.chart,
        labels: chart.data.labels,
        data: chart.data.datasets.map((d: { data: Array<number> }) => d.data),
        inked,
        table: rows.map((row: any) => [...row.querySelectorAll("td")].map((td: any) => td.textContent))
      }
    })
  )
  expect(errors).toEqual([])
  expect(requests).toEqual([])

  const top = (values: ReadonlyArray<{ name: string; count: number }>, other: number) => {
    const rest = values.slice(TOP).reduce((sum, { count }) => sum + count, other)
    return {
      labels: [...values.slice(0, TOP).map((v) => v.name), ...(rest > 0 ? ["(others)"] : [])],
      data: [[...values.slice(0, TOP).map((v) => v.count), ...(rest > 0 ? [rest] : [])]]
    }
  }
  const { buckets } = summary.timeline
  const types = [
    ...new Set(buckets.flatMap((b: { deviceType: object }) => Object.keys(b.deviceType)))
  ].sort() as Array<string>
  const expected: Record<string, { labels: Array<string>; data: Array<Array<number>> }> = {
    audience: { labels: ["Humans", "Bots"], data: [[summary.humans, summary.bots]] },
    traffic: {
      labels: buckets.map((b: { start: string }) => b.start),
      data: [buckets.map((b: { humans: number }) => b.humans), buckets.map((b: { bots: number }) => b.bots)]
    },
    "traffic-devices": {
      labels: buckets.map((b: { start: string }) => b.start),
      data: types.map((type) => buckets.map((b: { deviceType: Record<string, number> }) => b.deviceType[type] ?? 0))
    },
    "browser-version": top(summary.human.browserVersion.values, summary.human.browserVersion.other),
    "os-version": top(summary.human.osVersion.values, summary.human.osVersion.other),
    "device-type": top(summary.human.deviceType.values, summary.human.deviceType.other),
    vendor: top(summary.human.vendor.values, summary.human.vendor.other),
    model: top(summary.human.model.values, summary.human.model.other),
    "human-path": top(summary.human.path.values, summary.human.path.other),
    "human-status": top(summary.human.status.values, summary.human.status.other),
    "bot-category": top(summary.bot.category.values, summary.bot.category.other),
    "bot-name": top(summary.bot.name.values, summary.bot.name.other),
    "bot-path": top(summary.bot.path.values, summary.bot.path.other),
    "bot-status": top(summary.bot.status.values, summary.bot.status.other)
  }
  expect(drawn.map((chart) => chart.id).sort()).toEqual(Object.keys(expected).sort())
  for (const chart of drawn) {
    const want = expected[chart.id]!
    expect({ id: chart.id, labels: chart.labels, data: chart.data }).toEqual({ id: chart.id, ...want })
    expect({ id: chart.id, drawn: chart.inked > 500 }).toEqual({ id: chart.id, drawn: true })
    const rows = want.labels.map((label, i) => [label, ...want.data.map((series) => series[i]!.toLocaleString("en"))])
    expect({ id: chart.id, table: chart.table }).toEqual({ id: chart.id, table: rows })
  }
  // humans and bots apart: no bot among the browsers, no browser among the bots
  expect(expected["browser-version"]!.labels.some((label) => /bot|probe|zgrab|curl/i.test(label))).toBe(false)
  expect(expected["bot-name"]!.labels).toContain("kube-probe")
  await page.close()
})
