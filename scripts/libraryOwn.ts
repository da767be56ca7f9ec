/**
 * The wrapped library's own labelled suite: ua-parser-js's `test/data/ua/{browser,os,device}` fixtures (AGPL-3.0;
 * they stay in that project), built from a clone into `scripts/.corpora/library-own.jsonl` (git-ignored). The plain
 * library passes its own tests, so this corpus measures what the rules break of the library's answers, not accuracy:
 * it was built at the end of issue 20's second round and never tuned on.
 *
 *   bun scripts/libraryOwn.ts ../ua-parser-js
 */
import { git as gitIn, type Row, writeCorpus } from "./corpusFiles.ts"
import { deviceTypes } from "../src/Tools/UserAgent/parse/Names.ts"
import { browserLabel, osFamily } from "./corpusLabels.ts"

const repo = process.argv[2]
if (repo === undefined) {
  console.error("usage: bun scripts/libraryOwn.ts UA_PARSER_JS_CLONE")
  process.exit(2)
}
const git = (...args: Array<string>): string => gitIn(repo, ...args)

// the library's own names of the families, which the other sources spell otherwise
const libraryBrowsers: Readonly<Record<string, string>> = {
  "mobile chrome": "Chrome",
  "chrome headless": "Chrome",
  "mobile firefox": "Firefox"
}

interface Case {
  readonly ua?: unknown
  readonly expect?: { readonly name?: string; readonly type?: string }
}

const rows = new Map<string, { -readonly [K in keyof Row]: Row[K] }>()
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
    if (kind === "device") row.deviceType = deviceTypes.get(c.expect?.type ?? "") ?? null
    rows.set(c.ua, row)
  }
}
writeCorpus("library-own", [...rows.values()], ` (${git("rev-parse", "--short", "HEAD").trim()})`)
