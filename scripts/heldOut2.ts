/**
 * The second held-out corpus of issue 20, built after the first round of rules and measured before the second: the
 * labelled suites of three more user-agent libraries, none of them tuned on. Mobile Detect's vendor providers (MIT:
 * phone or tablet), platform.js's test table (MIT: browser and OS) and detect-browser's tests (MIT: browser, OS,
 * bot), built from clones into `scripts/.corpora/heldout2.jsonl` (git-ignored). Its misses are not read while
 * writing rules.
 *
 *   bun scripts/heldOut2.ts --mobiledetect ../Mobile-Detect --platformjs ../platform.js --detectbrowser ../detect-browser
 */
import { type Builder, distinct, git, type Row, sources, writeCorpus } from "./corpusFiles.ts"
import { browserLabel, linuxes } from "./corpusLabels.ts"

const show = (repo: string, file: string): string => git(repo, "show", `HEAD:${file}`)

// PHP and JavaScript string literals: '...' or "..." with backslash escapes
const unquote = (s: string): string => s.replace(/\\(.)/g, "$1")

// Mobile Detect: 'UA' => ['isMobile' => true, 'isTablet' => false, ...]; isMobile covers tablets, and a string that
// is neither (desktops, consoles, TVs alike) says nothing about which class it is, so it is unlabelled
const mobileDetect = (repo: string): Array<Row> =>
  git(repo, "ls-tree", "-r", "--name-only", "HEAD", "tests/providers/vendors/")
    .split("\n")
    .filter((f) => f.endsWith(".php"))
    .flatMap((file) =>
      [
        ...show(repo, file).matchAll(
          /^\s*(['"])((?:\\.|(?!\1)[^\\])*)\1\s*=>\s*(?:\[|array\()\s*'isMobile'\s*=>\s*(true|false)\s*,\s*'isTablet'\s*=>\s*(true|false)/gm
        )
      ].map(([, , quoted = "", mobile, tablet]) => ({
        ua: unquote(quoted),
        browser: null,
        os: null,
        deviceType: mobile === "true" ? (tablet === "true" ? "Tablet" : "Mobile") : null,
        bot: null,
        source: `Mobile-Detect ${file}`
      }))
    )

// OS names of platform.js ("OS X 10.6", "Windows Server 2008 R2 / 7 64-bit", "Linux i686", "Kubuntu 64-bit") and of
// detect-browser ("Windows 7", "Mac OS", "Android OS"); platform.js's "Mac OS" is a PowerPC Mac of either system
const osLabel = (name: string | undefined, macOs: string | null): string | null => {
  if (name === undefined || name === "") return null
  if (/^Windows (Phone|CE|Mobile)/.test(name)) return "Other"
  if (/^Windows/.test(name)) return "Windows"
  if (/^OS X\b|^macOS\b/.test(name)) return "macOS"
  if (/^Mac OS$/.test(name)) return macOs
  if (/^iOS\b/.test(name)) return "iOS"
  if (/^Android\b/.test(name)) return "Android"
  const bare = name.replace(/ (\d[\w.]*|i[3-6]86|x86_64|armv\w+|64-bit)$/g, "").replace(/ (\d[\w.]*|64-bit)$/, "")
  return linuxes.test(bare) ? "Linux" : "Other"
}

// platform.js: 'Title': { 'ua': '...', 'name': '...', 'os': '...', ... } in test/test.js
const platformJs = (repo: string): Array<Row> =>
  [...show(repo, "test/test.js").matchAll(/\n {4}'[^\n]*': \{\n([\s\S]*?)\n {4}\}/g)].flatMap(([, body = ""]) => {
    const field = (key: string): string | undefined =>
      new RegExp(`^ {6}'${key}' ?: '((?:\\\\.|[^'\\\\])*)'`, "m").exec(body)?.[1]
    const ua = field("ua")
    if (ua === undefined) return []
    const os = field("os")
    return [
      {
        ua: unquote(ua),
        browser: browserLabel(field("name")),
        os: osLabel(os === undefined ? undefined : unquote(os), null),
        deviceType: null,
        bot: null,
        source: "platform.js test/test.js"
      }
    ]
  })

const detectBrowserNames: Readonly<Record<string, string>> = {
  chrome: "Chrome",
  crios: "Chrome",
  "chromium-webview": "Chrome",
  firefox: "Firefox",
  fxios: "Firefox",
  safari: "Safari",
  ios: "Safari",
  "ios-webview": "Safari",
  edge: "Edge",
  "edge-chromium": "Edge",
  "edge-ios": "Edge",
  ie: "IE"
}

// detect-browser: assertAgentString(t, 'ua', { type: 'browser' | 'bot' | 'bot-device', name: '...', os: '...' })
const detectBrowser = (repo: string): Array<Row> =>
  [...show(repo, "test/logic.js").matchAll(/assertAgentString\(\s*t,\s*'((?:\\.|[^'\\])*)',\s*\{([^}]*)\}/g)].map(
    ([, ua = "", body = ""]) => {
      const field = (key: string): string | undefined => new RegExp(`\\b${key}: '([^']*)'`).exec(body)?.[1]
      const bot = /^bot/.test(field("type") ?? "")
      const name = field("name")
      return {
        ua: unquote(ua),
        browser: bot || name === undefined ? null : (detectBrowserNames[name] ?? "Other"),
        os: bot ? null : osLabel(field("os"), "macOS"),
        deviceType: null,
        bot,
        source: "detect-browser test/logic.js"
      }
    }
  )

const builders: Readonly<Record<string, Builder>> = {
  mobiledetect: mobileDetect,
  platformjs: platformJs,
  detectbrowser: detectBrowser
}
const rows: Array<Row> = []
for (const { repo, build } of sources(
  builders,
  "bun scripts/heldOut2.ts --mobiledetect DIR --platformjs DIR --detectbrowser DIR"
)) {
  const built = build(repo)
  console.log(`${repo}: ${built.length} strings (${git(repo, "rev-parse", "--short", "HEAD").trim()})`)
  rows.push(...built)
}
writeCorpus("heldout2", distinct(rows))
