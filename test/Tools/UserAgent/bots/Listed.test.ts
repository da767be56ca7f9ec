import { expect, test } from "bun:test"

const parser = new URL("../../../../src/Tools/UserAgent/parse/Normalise.ts", import.meta.url).pathname
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const SCANNER = "Mozilla/5.0 (compatible; Detectify) https://detectify.com/bot/1"

// In a process of its own: whether Matomo's list was evaluated, after the parser's import, a browser's parse and a
// scanner's (the package's module is in `require.cache` once evaluated, whether imported or required).
const script = `
import { parseUserAgent } from ${JSON.stringify(parser)}
const listed = () => Object.keys(require.cache).some((path) => path.endsWith("node-device-detector/regexes/bots.js"))
const seen = [listed()]
parseUserAgent(${JSON.stringify(BROWSER)})
seen.push(listed())
const scanner = parseUserAgent(${JSON.stringify(SCANNER)})
seen.push(listed())
await Bun.write(Bun.stdout, JSON.stringify({ seen, bot: scanner.bot }))
`

test("Matomo's bot list is read on the first bot asked about, not at import or on a browser's parse", async () => {
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" })
  const out = await new Response(proc.stdout).text()
  expect(await proc.exited).toBe(0)
  expect(JSON.parse(out)).toEqual({
    seen: [false, false, true],
    bot: { isBot: true, name: "Detectify", category: "scanner" }
  })
})
