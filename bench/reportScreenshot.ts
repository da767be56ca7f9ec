/**
 * docs/report.png: `parse --html` on a realistic log (`realisticLog.ts`, 100,000 lines over 2 days), as headless
 * Chromium shows its top part. Run again after a change to the report's look.
 *
 *   bun bench/reportScreenshot.ts [--lines N]
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import puppeteer from "puppeteer-core"
import { count, main, parseFlags } from "./lib/args.ts"
import { writeRealisticLog } from "./realisticLog.ts"

const options = { lines: 100_000 }
parseFlags(process.argv.slice(2), "bun bench/reportScreenshot.ts [--lines N]\n", {
  "--lines": (value, flag) => (options.lines = count(flag, value()))
})

await main(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tools-api-report-shot-"))
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
  })
  try {
    const log = join(dir, "access.log")
    const html = join(dir, "report.html")
    await writeRealisticLog(log, { lines: options.lines, agents: 20_000, days: 2 })
    const main = join(process.cwd(), "src/main.ts")
    const proc = Bun.spawn([process.execPath, main, "parse", "--log", "combined", "--html", html, "access.log"], {
      cwd: dir,
      stdout: "ignore",
      stderr: "inherit"
    })
    if ((await proc.exited) !== 0) throw new Error("parse failed")
    const page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 2000 })
    await page.goto(`file://${html}`, { waitUntil: "load" })
    await page.screenshot({ path: "docs/report.png", clip: { x: 0, y: 0, width: 1280, height: 2000 } })
  } finally {
    await browser.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
