/**
 * `bun run test:browser`: /docs in a real browser (Debian's chromium, driven by puppeteer-core), with every request
 * to another host blocked. Prints `ok …` / `not ok …` per check and `browser: done`, as .ci/smoke does; CI installs
 * chromium and counts the lines. Kept out of `bun test`, so the README's test command needs no browser.
 */
import puppeteer from "puppeteer-core"
import { start } from "../support/Process.ts"

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium"
const KEY = "browser-test-key-0123456789"
const PARSE = "/v1/tools/user-agent-parser"

/** The page's own globals, as the callbacks below see them inside the browser (this project's types have no DOM). */
type Button = { readonly innerText: string }
declare const document: { querySelectorAll: (selector: string) => Iterable<Button> }

const check = (name: string, ok: boolean, detail = "") =>
  console.log(`${ok ? "ok" : "not ok"} ${name}${ok || detail === "" ? "" : ` (${detail})`}`)

const server = await start({ API_KEYS: KEY, HOST: "127.0.0.1" })
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  // as root in a sandbox, without the background traffic a closed network refuses
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]
})
try {
  const page = await browser.newPage()
  await page.setViewport({ width: 1400, height: 1000 })
  const outside: Array<string> = []
  const pageErrors: Array<string> = []
  const answers: Array<{ status: number; body: string; authorization: string | undefined }> = []
  await page.setRequestInterception(true)
  page.on("request", (request) => {
    const url = new URL(request.url())
    if (["http:", "https:"].includes(url.protocol) && url.hostname !== "127.0.0.1") {
      outside.push(request.url())
      void request.abort()
    } else void request.continue()
  })
  page.on("pageerror", (error) => pageErrors.push(String(error)))
  page.on("response", async (response) => {
    if (!response.url().includes(PARSE) || response.request().method() !== "POST") return
    answers.push({
      status: response.status(),
      body: await response.text(),
      authorization: response.request().headers().authorization
    })
  })

  await page.goto(`${server.base}/docs`, { waitUntil: "networkidle0" })
  const labels = await page.$$eval("button", (buttons) =>
    buttons.map((button) => (button as unknown as Button).innerText.replace(/\s+/g, " ").trim())
  )
  check(
    "both operations render",
    [PARSE, "/v1/tools/wage-estimator"].every((path) => labels.some((l) => l.includes(`Test Request (post ${path})`)))
  )

  check(
    "no hosted-service toolbar (Share, Deploy, Generate SDKs) on a self-hosted page",
    !labels.some((label) => /^(Share|Deploy|Generate SDKs?)$/i.test(label)),
    labels.filter((label) => /share|deploy|sdk/i.test(label)).join(", ")
  )
  const icon = await page.$eval("link[rel~='icon']", (link) => link.getAttribute("href")).catch(() => null)
  check("a favicon of its own, inline", icon?.startsWith("data:image/svg+xml") === true, String(icon))

  const click = async (pattern: RegExp) => {
    for (const button of await page.$$("button")) {
      const text = await button.evaluate((b) => (b as unknown as Button).innerText.replace(/\s+/g, " ").trim())
      if (pattern.test(text)) return void (await button.click())
    }
    throw new Error(`no button ${pattern}`)
  }
  // the key pasted once into the preselected bearer scheme, then "Test Request" of the parse example as prefilled
  await page.type("input[placeholder='Token']", KEY)
  await click(new RegExp(`^Test Request \\(post ${PARSE}\\)`))
  await page.waitForFunction(() =>
    [...document.querySelectorAll("button")].some((b) => /^Send/.test(b.innerText.trim()))
  )
  await click(/^Send\s+Send post request/)
  const deadline = Date.now() + 10_000
  while (answers.length === 0 && Date.now() < deadline) await Bun.sleep(50)
  const [answer] = answers
  check(
    '"Test Request" of the parse example with a pasted key gets 200',
    answer?.status === 200 && answer.authorization === `Bearer ${KEY}` && JSON.parse(answer.body).success === true,
    JSON.stringify(answer ?? "no request").slice(0, 200)
  )
  check("no request leaves the host", outside.length === 0, outside.slice(0, 3).join(", "))
  check("no page error", pageErrors.length === 0, pageErrors.slice(0, 3).join("; "))
} catch (error) {
  check("the browser test ran", false, String(error))
} finally {
  await browser.close()
  await server.stop()
}
console.log("browser: done")
