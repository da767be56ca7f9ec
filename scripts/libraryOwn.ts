/**
 * The wrapped library's own labelled suite: ua-parser-js's `test/data/ua/{browser,os,device}` fixtures (AGPL-3.0;
 * they stay in that project), built from a clone into `scripts/.corpora/library-own.jsonl` (git-ignored). The plain
 * library passes its own tests, so this corpus measures what the rules break of the library's answers, not accuracy:
 * it was built at the end of issue 20's second round and never tuned on.
 *
 *   bun scripts/libraryOwn.ts ../ua-parser-js
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { browserLabel, osFamily } from "./corpusLabels.ts"

const repo = process.argv[2]
if (repo === undefined) {
  console.error("usage: bun scripts/libraryOwn.ts UA_PARSER_JS_CLONE")
  process.exit(2)
}
const git = (...args: Array<string>): string =>
  execFileSync("git", ["-C", repo, ...args], { maxBuffer: 1 << 28 }).toString()

// the library's own names of the families, which the other sources spell otherwise
const libraryBrowsers: Readonly<Record<string, string>> = {
  "mobile chrome": "Chrome",
  "chrome headless": "Chrome",
  "mobile firefox": "Firefox"
}
const deviceTypes: Readonly<Record<string, string>> = {
  mobile: "Mobile",
  tablet: "Tablet",
  smarttv: "SmartTV",
  console: "Console",
  wearable: "Wearable",
  xr: "XR",
  embedded: "Embedded"
}

interface Case {
  readonly ua?: unknown
  readonly expect?: { readonly name?: string; readonly type?: string }
}

const rows = new Map<string, Record<string, unknown>>()
for (const file of git("ls-tree", "-r", "--name-only", "HEAD", "test/data/ua/").split("\n")) {
  const kind = /^test\/data\/ua\/(browser|os|device)\/.*\.json$/.exec(file)?.[1]
  if (kind === undefined) continue
  for (const c of JSON.parse(git("show", `HEAD:${file}`)) as Array<Case>) {
    if (typeof c.ua !== "string" || c.ua === "") continue
    const name = c.expect?.name
    const row = rows.get(c.ua) ?? { ua: c.ua, browser: null, os: null, deviceType: null, bot: null, source: file }
    if (kind === "browser" && name !== undefined && name !== "undefined")
      row.browser = libraryBrowsers[name.toLowerCase()] ?? browserLabel(name)
    if (kind === "os" && name !== undefined && name !== "undefined")
      row.os = name === "Mac OS" || name === "macOS" ? "macOS" : osFamily(name)
    if (kind === "device") row.deviceType = deviceTypes[c.expect?.type ?? ""] ?? null
    rows.set(c.ua, row)
  }
}
const out = new URL("./.corpora/", import.meta.url).pathname
mkdirSync(out, { recursive: true })
writeFileSync(`${out}library-own.jsonl`, [...rows.values()].map((r) => JSON.stringify(r)).join("\n") + "\n")
console.log(`${out}library-own.jsonl: ${rows.size} strings (${git("rev-parse", "--short", "HEAD").trim()})`)
