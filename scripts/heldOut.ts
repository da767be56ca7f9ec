/**
 * The held-out corpus of issue 20: the labelled suites of two user-agent libraries no rule was tuned on, bowser's
 * acceptance strings (MIT) and woothee's testsets (Apache-2.0), built from clones into
 * `scripts/.corpora/heldout.jsonl` (git-ignored). Measured before any rule of issue 20 was written and after; its
 * misses are not read while writing rules.
 *
 *   bun scripts/heldOut.ts --bowser ../bowser --woothee ../woothee
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { browserLabel, osFamily } from "./corpusLabels.ts"

interface Row {
  readonly ua: string
  readonly browser: string | null
  readonly os: string | null
  readonly deviceType: string | null
  readonly bot: boolean
  readonly source: string
}

const git = (repo: string, ...args: Array<string>): string =>
  execFileSync("git", ["-C", repo, ...args], { maxBuffer: 1 << 28 }).toString()

const bowserDevices: Readonly<Record<string, string>> = {
  desktop: "Desktop",
  mobile: "Mobile",
  tablet: "Tablet",
  tv: "SmartTV"
}

const bowser = (repo: string): Array<Row> => {
  const file = "test/acceptance/useragentstrings.yml"
  const groups = Bun.YAML.parse(git(repo, "show", `HEAD:${file}`)) as Record<string, Array<any>>
  return Object.values(groups).flatMap((cases) =>
    cases.map((c) => {
      const bot = c.spec?.platform?.type === "bot"
      const os = c.spec?.os?.name as string | undefined
      return {
        ua: c.ua,
        browser: bot ? null : browserLabel(c.spec?.browser?.name),
        // bowser names Windows Phone and Chrome OS as themselves: outside the families
        os: bot ? null : osFamily(os === "Windows Phone" ? "Windows Phone" : os),
        deviceType: bot ? null : (bowserDevices[c.spec?.platform?.type ?? ""] ?? null),
        bot,
        source: `bowser ${file}`
      }
    })
  )
}

// woothee's OS names: Windows versions, "Mac OSX", Apple's devices, carriers' handsets ("docomo", "au") ...
const wootheeOs = (name: string | undefined): string | null => {
  if (name === undefined || name === "UNKNOWN") return null
  if (/^Windows (Phone|CE)/.test(name)) return "Other"
  if (/^Windows/.test(name)) return "Windows"
  if (name === "Mac OSX") return "macOS"
  if (/^(iPhone|iPad|iPod|iOS)$/.test(name)) return "iOS"
  return osFamily(name)
}

// pc is a desktop and mobilephone a handset; "smartphone" covers iPads and Android tablets, so only Apple's
// handsets are labelled; "appliance" (consoles and TVs together) is not
const wootheeDevice = (category: string, os: string | undefined): string | null => {
  if (category === "pc") return "Desktop"
  if (category === "mobilephone") return "Mobile"
  if (category === "smartphone" && (os === "iPhone" || os === "iPod")) return "Mobile"
  if (category === "smartphone" && os === "iPad") return "Tablet"
  return null
}

const woothee = (repo: string): Array<Row> =>
  git(repo, "ls-tree", "--name-only", "HEAD", "testsets/")
    .split("\n")
    .filter((f) => f.endsWith(".yaml") && !f.endsWith("blank.yaml"))
    .flatMap((file) =>
      ((Bun.YAML.parse(git(repo, "show", `HEAD:${file}`)) ?? []) as Array<any>)
        .filter((c) => typeof c?.target === "string" && c.target !== "")
        .map((c) => {
          const bot = c.category === "crawler"
          const unlabelled = bot || c.category === "UNKNOWN" || c.category === "misc"
          return {
            ua: c.target,
            browser: unlabelled ? null : browserLabel(c.name),
            os: bot ? null : wootheeOs(c.os),
            deviceType: bot ? null : wootheeDevice(c.category, c.os),
            bot,
            source: `woothee ${file}`
          }
        })
    )

const builders: Readonly<Record<string, (repo: string) => Array<Row>>> = { bowser, woothee }
const args = process.argv.slice(2)
const rows: Array<Row> = []
for (let i = 0; i < args.length; i += 2) {
  const build = builders[args[i]?.replace(/^--/, "") ?? ""]
  const repo = args[i + 1]
  if (build === undefined || repo === undefined) {
    console.error("usage: bun scripts/heldOut.ts --bowser DIR --woothee DIR")
    process.exit(2)
  }
  rows.push(...build(repo))
}
const out = new URL("./.corpora/", import.meta.url).pathname
mkdirSync(out, { recursive: true })
const seen = new Set<string>()
const distinct = rows.filter((r) => !seen.has(r.ua) && seen.add(r.ua))
writeFileSync(`${out}heldout.jsonl`, distinct.map((r) => JSON.stringify(r)).join("\n") + "\n")
console.log(`${out}heldout.jsonl: ${distinct.length} strings`)
