/**
 * The device-brand corpora of issue 27, for `bun scripts/deviceAccuracy.ts`: strings of phones, tablets, TVs, consoles
 * and e-readers whose suite names the brand that sells them, built from clones into `scripts/.corpora/devices-*.jsonl`
 * (git-ignored). browscap's `tests/issues` (MIT; `Device_Brand_Name`) is the development set; Mobile Detect's
 * `tests/providers/vendors/<Brand>.php` (MIT; the file names the brand, `isMobile` true) was chosen as the held-out set
 * before the device database was written, and its misses are not read while tuning.
 *
 *   bun scripts/deviceCorpora.ts --browscap ../browscap --mobiledetect ../Mobile-Detect
 *
 * A line is `{ ua, vendor, kind, source }`: `kind` is "phone", "tablet" or "other" (TV, console), for the share of
 * phones and tablets whose marketing name is known. Label mapping: browscap's "RIM" is BlackBerry (the contract's
 * brand); Mobile Detect's `Mi.php` is Xiaomi and `Blackberry.php` BlackBerry; its `Nexus.php` (several makers),
 * `Others.php` and `SpecialCases.php` name no one brand and are left out.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { git, sources } from "./corpusFiles.ts"

interface DeviceRow {
  readonly ua: string
  readonly vendor: string
  readonly kind: "phone" | "tablet" | "other"
  readonly source: string
}

const show = (repo: string, file: string): string => git(repo, "show", `HEAD:${file}`)
const files = (repo: string, dir: string, ext: string): Array<string> =>
  git(repo, "ls-tree", "-r", "--name-only", "HEAD", dir)
    .split("\n")
    .filter((f) => f.endsWith(ext))

const browscapKinds: Readonly<Record<string, DeviceRow["kind"]>> = {
  "Mobile Phone": "phone",
  Tablet: "tablet",
  "Ebook Reader": "tablet",
  "TV Device": "other",
  Console: "other"
}
const browscapBrands: Readonly<Record<string, string>> = { RIM: "BlackBerry" }

const unquoteBrowscap = (s: string): string => s.replace(/\\(['\\])/g, "$1")

const browscap = (repo: string): Array<DeviceRow> => {
  const seen = new Set<string>()
  return files(repo, "tests/issues", ".php").flatMap((file) =>
    [...show(repo, file).matchAll(/'ua' => '((?:[^'\\]|\\.)*)',\s*'properties' => \[([\s\S]*?)\n {8}\],/g)].flatMap(
      ([, quoted = "", body = ""]) => {
        const ua = unquoteBrowscap(quoted)
        const p: Record<string, string> = {}
        for (const [, key = "", value, flag] of body.matchAll(/'(\w+)' => (?:'((?:[^'\\]|\\.)*)'|(true|false))/g))
          p[key] = value === undefined ? (flag ?? "") : unquoteBrowscap(value)
        const kind = browscapKinds[p.Device_Type ?? ""]
        const brand = p.Device_Brand_Name
        if (kind === undefined || brand === undefined || brand === "" || brand === "unknown" || seen.has(ua)) return []
        if (p.Crawler === "true" || /Bot|Crawler/.test(p.Browser_Type ?? "")) return []
        seen.add(ua)
        return [{ ua, vendor: browscapBrands[brand] ?? brand, kind, source: file }]
      }
    )
  )
}

const mobileDetectBrands: Readonly<Record<string, string | null>> = {
  Mi: "Xiaomi",
  Blackberry: "BlackBerry",
  Nexus: null,
  Others: null,
  SpecialCases: null
}

const mobileDetect = (repo: string): Array<DeviceRow> => {
  const seen = new Set<string>()
  return files(repo, "tests/providers/vendors/", ".php").flatMap((file) => {
    const base = file.replace(/^.*\//, "").replace(/\.php$/, "")
    const vendor = base in mobileDetectBrands ? mobileDetectBrands[base] : base
    if (vendor === null || vendor === undefined) return []
    return [
      ...show(repo, file).matchAll(
        /^\s*(['"])((?:\\.|(?!\1)[^\\])*)\1\s*=>\s*(?:\[|array\()\s*'isMobile'\s*=>\s*(true|false)\s*,\s*'isTablet'\s*=>\s*(true|false)/gm
      )
    ].flatMap(([, , quoted = "", mobile, tablet]) => {
      const ua = quoted.replace(/\\(.)/g, "$1")
      if (mobile !== "true" || seen.has(ua)) return []
      seen.add(ua)
      return [{ ua, vendor, kind: tablet === "true" ? ("tablet" as const) : ("phone" as const), source: file }]
    })
  })
}

const builders = { browscap, mobiledetect: mobileDetect }
const usage = "bun scripts/deviceCorpora.ts [--browscap DIR] [--mobiledetect DIR]"
const out = new URL("./.corpora/", import.meta.url).pathname
mkdirSync(out, { recursive: true })
for (const { name, repo, build } of sources(builders as never, usage)) {
  const rows = (build as unknown as (repo: string) => Array<DeviceRow>)(repo)
  writeFileSync(`${out}devices-${name}.jsonl`, rows.map((r) => JSON.stringify(r)).join("\n") + "\n")
  const commit = git(repo, "rev-parse", "--short", "HEAD").trim()
  console.log(`${out}devices-${name}.jsonl: ${rows.length} strings (${commit})`)
}
