/**
 * The held-out corpus of issue 20: the labelled suites of two user-agent libraries no rule was tuned on, bowser's
 * acceptance strings (MIT) and woothee's testsets (Apache-2.0), built from clones into
 * `scripts/.corpora/heldout.jsonl` (git-ignored). Measured before any rule of issue 20 was written and after; its
 * misses are not read while writing rules.
 *
 *   bun scripts/heldOut.ts --bowser ../bowser --woothee ../woothee
 */
import { type Builder, distinct, git, type Row, sources, writeCorpus } from "./corpusFiles.ts"
import { browserLabel, osFamily } from "./corpusLabels.ts"

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

const builders: Readonly<Record<string, Builder>> = { bowser, woothee }
const rows: Array<Row> = []
for (const { repo, build } of sources(builders, "bun scripts/heldOut.ts --bowser DIR --woothee DIR")) {
  const built = build(repo)
  console.log(`${repo}: ${built.length} strings (${git(repo, "rev-parse", "--short", "HEAD").trim()})`)
  rows.push(...built)
}
writeCorpus("heldout", distinct(rows))
