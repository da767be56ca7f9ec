/**
 * Builds the long-tail development corpora of issue 14 from other projects' labelled test fixtures, for
 * `bun run accuracy scripts/.corpora/<name>.jsonl`. The fixtures stay in those projects (licences and size): give the
 * path of a clone of each one you have; the files are written to `scripts/.corpora/` (git-ignored).
 *
 *   bun scripts/devCorpora.ts --matomo ../device-detector --whichbrowser ../Parser --browscap ../browscap
 *
 * The label mapping is in scripts/README.md ("Long-tail devices", `corpusLabels.ts`); bots are labelled `bot` only.
 */
import { type Builder, git, type Row, sources, writeCorpus } from "./corpusFiles.ts"
import { browserLabel, linuxes, osFamily } from "./corpusLabels.ts"

const files = (repo: string, dir: string, ext: string): Array<string> =>
  git(repo, "ls-tree", "-r", "--name-only", "HEAD", dir)
    .split("\n")
    .filter((f) => f.endsWith(ext))
const show = (repo: string, file: string): string => git(repo, "show", `HEAD:${file}`)

const matomoDevices: Readonly<Record<string, string>> = {
  desktop: "Desktop",
  smartphone: "Mobile",
  "feature phone": "Mobile",
  phablet: "Mobile",
  "portable media player": "Mobile",
  tablet: "Tablet",
  tv: "SmartTV",
  console: "Console",
  wearable: "Wearable",
  "car browser": "Embedded",
  "smart display": "Embedded",
  camera: "Embedded",
  peripheral: "Embedded",
  "smart speaker": "Embedded"
}

const matomo = (repo: string): Array<Row> =>
  files(repo, "Tests/fixtures/", ".yml")
    .filter((f) => !/bots|clienthints/.test(f))
    .flatMap((file) =>
      (Bun.YAML.parse(show(repo, file)) as Array<any>)
        .filter((c) => typeof c?.user_agent === "string" && c.headers === undefined)
        .map((c) => {
          let deviceType = matomoDevices[c.device?.type ?? ""] ?? null
          // Matomo files VR headsets under wearable; the contract has XR for them
          const name = `${c.device?.model} ${c.device?.brand}`
          if (deviceType === "Wearable" && /quest|oculus|vive|pico|vr\b|valve index/i.test(name)) deviceType = "XR"
          const os = Array.isArray(c.os) ? null : osFamily(c.os?.name, c.os_family)
          // an app or media player that sends the string is the answer too ("Other"); no client: unlabelled
          const browser = c.client?.type === "browser" ? browserLabel(c.client.name) : c.client?.name ? "Other" : null
          return { ua: c.user_agent, browser, os, deviceType, bot: false, source: file }
        })
    )

const whichBrowserDevice = (type: string | undefined, file: string): string | null => {
  switch (type) {
    case "desktop":
      return "Desktop"
    case "mobile":
    case "pda":
    case "media":
      return "Mobile"
    case "tablet":
    case "ereader":
      return "Tablet"
    case "television":
      return "SmartTV"
    case "gaming":
      return "Console"
    case "watch":
      return "Wearable"
    case "headset":
      return /glass/.test(file) ? "Wearable" : "XR"
    case "car":
    case "camera":
    case "printer":
    case "signage":
    case "appliance":
    case "phone":
      return "Embedded"
    default:
      return null
  }
}

const whichBrowser = (repo: string): Array<Row> =>
  files(repo, "tests/data", ".yaml")
    .filter((f) => !f.includes("/bots/"))
    .flatMap((file) =>
      ((Bun.YAML.parse(show(repo, file)) ?? []) as Array<any>)
        // only strings sent alone: other headers change the answer
        .filter((c) => typeof c?.headers === "string" && /^User-Agent: [^\n]*$/.test(c.headers))
        .map((c) => ({
          ua: c.headers.slice("User-Agent: ".length),
          browser: browserLabel(c.result?.browser?.name),
          os: osFamily(c.result?.os?.name, c.result?.os?.family?.name),
          deviceType: whichBrowserDevice(c.result?.device?.type, file),
          bot: false,
          source: file
        }))
    )

const browscapDevices: Readonly<Record<string, string>> = {
  Desktop: "Desktop",
  "Mobile Phone": "Mobile",
  Tablet: "Tablet",
  "Ebook Reader": "Tablet",
  "TV Device": "SmartTV",
  Console: "Console",
  "Car Entertainment System": "Embedded",
  "Digital Camera": "Embedded"
}

const browscapOs = (platform: string): string | null => {
  if (platform === "" || platform === "unknown") return null
  if (/^Win(Phone|Mobile|CE)/.test(platform)) return "Other"
  if (/^Win/.test(platform)) return "Windows"
  if (/^(MacOSX|macOS|Macintosh|MacPPC|Mac68K)$/.test(platform)) return "macOS"
  if (/^(iOS|iPadOS)$/i.test(platform)) return "iOS"
  if (/^(Android|FireOS|Android for GoogleTV)$/.test(platform)) return "Android"
  return linuxes.test(platform) ? "Linux" : "Other"
}

const unquote = (s: string): string => s.replace(/\\(['\\])/g, "$1")

// browscap's tests are PHP arrays: 'ua' => '...', 'properties' => [ 'Key' => 'value' | true | false, ... ]
const browscap = (repo: string): Array<Row> => {
  const seen = new Set<string>()
  return files(repo, "tests/issues", ".php").flatMap((file) =>
    [...show(repo, file).matchAll(/'ua' => '((?:[^'\\]|\\.)*)',\s*'properties' => \[([\s\S]*?)\n {8}\],/g)].flatMap(
      ([, quoted = "", body = ""]) => {
        const ua = unquote(quoted)
        const p: Record<string, string> = {}
        for (const [, key = "", value, flag] of body.matchAll(/'(\w+)' => (?:'((?:[^'\\]|\\.)*)'|(true|false))/g))
          p[key] = value === undefined ? (flag ?? "") : unquote(value)
        // the lite and standard editions repeat a string with fewer properties
        if (p.Device_Type === undefined || p.Platform === undefined || seen.has(ua)) return []
        seen.add(ua)
        // a crawler, or a browser string labelled as a bot's ("Bot/Crawler")
        const bot = p.Crawler === "true" || /Bot|Crawler/.test(p.Browser_Type ?? "")
        return [
          {
            ua,
            browser: bot ? null : browserLabel(p.Browser),
            os: bot ? null : browscapOs(p.Platform),
            deviceType: bot ? null : (browscapDevices[p.Device_Type] ?? null),
            bot,
            source: file
          }
        ]
      }
    )
  )
}

const builders: Readonly<Record<string, Builder>> = {
  matomo,
  whichbrowser: whichBrowser,
  browscap
}
const usage = `bun scripts/devCorpora.ts [--${Object.keys(builders).join(" DIR] [--")} DIR]`
for (const { name, repo, build } of sources(builders, usage)) {
  writeCorpus(name, build(repo), ` (${git(repo, "rev-parse", "--short", "HEAD").trim()})`)
}
