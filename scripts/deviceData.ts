/**
 * Generates the device database the service loads, the folder `generated/devices` (git-ignored), from Matomo
 * device-detector's device regexes as the pinned node-device-detector package ships them (node_modules):
 *
 *   bun scripts/deviceData.ts           # writes it when it is missing, damaged or out of date (install, build, tests)
 *   bun scripts/deviceData.ts --force   # writes it anyway
 *   bun scripts/deviceData.ts --force --out FOLDER   # writes it to FOLDER instead
 *
 * Its files (`deviceFilesIn`, src/Tools/UserAgent/device/Data.ts), each read when first needed:
 * - `index.json`, JSON of `DeviceIndex`'s shape: the source and its version, the parsers' gates, every brand in
 *   Matomo's order of parsers, the top-level alternatives of the brands' patterns (the long ones spread into pieces:
 *   `spread`, PatternFiling.ts) with their `Filing` (PatternIndex.ts);
 * - `brands-K.jsonl`, `BRAND_FILES` of them: each brand's models with theirs, a line a brand;
 * - `names.jsonl`: the models' names one brand alone gives;
 * - `files.sum`: each file's CRC-32 and length, which the service checks at start.
 * Reading the patterns for their texts (PatternTexts.ts) is done here, once, so the service only loads the result.
 * Before it writes, it times every pattern on hostile strings of the length the service lets it read
 * (devicePatternCost.ts) and fails if one costs more than the bound.
 */
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { basename, dirname } from "node:path"
import {
  BRAND_FILES,
  type BrandModels,
  type DeviceIndex,
  deviceFilesIn,
  inOrder,
  type ModelNames,
  sumsIn,
  sumOf,
  sumText
} from "../src/Tools/UserAgent/device/Data.ts"
import { modelName, plainName } from "../src/Tools/UserAgent/device/Patterns.ts"
import { tablesOf } from "../src/Tools/UserAgent/device/PatternIndex.ts"
import { branches, fileTexts, filingData, spread, tablesData, toJson } from "./deviceData/PatternFiling.ts"
import { checkPatternCosts, costLines } from "./devicePatternCost.ts"

const outAt = process.argv.indexOf("--out")
const OUT = outAt === -1 ? new URL("../generated/devices", import.meta.url).pathname : process.argv[outAt + 1]!
const FILES = deviceFilesIn(OUT)
const PACKAGE = "node-device-detector"
// a model's name that a string may give alone: three characters or more, a letter among them ("Fire Phone", not "K")
const NAMED = /^(?=.*[a-z]).{3,}/
// an alternative longer than this is spread into pieces (PatternFiling.ts)
const LONG = 256

interface ModelEntry {
  readonly regex: string
  readonly model?: string
  readonly brand?: string
  readonly device?: string
}
interface BrandEntry extends ModelEntry {
  readonly models?: ReadonlyArray<ModelEntry>
}

const packageDir = dirname(Bun.resolveSync(`${PACKAGE}/package.json`, import.meta.dir))
const version: string = JSON.parse(readFileSync(`${packageDir}/package.json`, "utf8")).version
// what the file depends on: the package's version, this script and the code that reads the patterns and defines
// the file's layout; and the check it passed, and the window it was checked at (device/Patterns.ts)
const stamp = [
  "./deviceData/PatternTexts.ts",
  "./deviceData/PatternFiling.ts",
  ...["PatternIndex", "Data", "Patterns"].map((file) => `../src/Tools/UserAgent/device/${file}.ts`)
]
  .reduce(
    (hash, file) => hash.update(readFileSync(new URL(file, import.meta.url).pathname)),
    createHash("sha256")
      .update(version)
      .update(readFileSync(new URL(import.meta.url).pathname))
      .update(readFileSync(new URL("./devicePatternCost.ts", import.meta.url).pathname))
  )
  .digest("hex")
  .slice(0, 16)

// files that do not parse or whose sums differ (cut short, damaged) are written again
const current = (): boolean => {
  try {
    const sums = sumsIn(readFileSync(FILES.sums, "latin1"), inOrder(FILES).length)
    const whole = inOrder(FILES).every((path, at) => sumOf(readFileSync(path)) === sums?.[at])
    return whole && JSON.parse(readFileSync(FILES.index, "latin1")).stamp === stamp
  } catch {
    return false
  }
}

if (!process.argv.includes("--force") && current()) process.exit(0)

// a data file's object literal is JSON (node-device-detector writes them as `module.exports = {...}`)
const brandsOf = (file: string): Array<[string, BrandEntry]> => {
  const text = readFileSync(`${packageDir}/regexes/device/${file}.js`, "utf8")
  return Object.entries(JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)))
}

// the parsers' own conditions: HbbTV televisions and shell TVs only on their platform token, Facebook's notebooks
// only on `FBMD/`
const gates = [
  "(?:HbbTV|SmartTvA)/([1-9]{1}(?:[.][0-9]{1}){1,2})",
  "[a-z]+[ _]Shell[ _]\\w{6}|tclwebkit(\\d+[.\\d]*)",
  "FBMD/"
]
// Matomo's order of parsers
const parsers: ReadonlyArray<readonly [string, number]> = [
  ["televisions", 0],
  ["shell_tv", 1],
  ["notebooks", 2],
  ["consoles", -1],
  ["car_browsers", -1],
  ["cameras", -1],
  ["portable_media_player", -1],
  ["mobiles", -1]
]

const brands = parsers.flatMap(([file, gate]) => brandsOf(file).map(([name, entry]) => ({ name, gate, entry })))
// Matomo's device classes ("smartphone", "tablet", "tv"...): a brand's, and a model's where it differs
const classes = [
  ...new Set(brands.flatMap(({ entry }) => [entry.device, ...(entry.models ?? []).map((m) => m.device)]))
].filter((name): name is string => name !== undefined)
const classOf = (name: string | undefined): number => (name === undefined ? -1 : classes.indexOf(name))
// the models' own names (a template without groups), each where one brand alone gives it: a string that names its
// device so ("Fire Phone") but no brand or code the patterns know still finds it
const byName = new Map<string, Array<{ vendor: string; name: string; kind: string | undefined }>>()
brands.forEach(({ name, entry }) =>
  (entry.models ?? []).forEach((model) => {
    if (model.model === undefined || model.model.includes("$")) return
    const [key, vendor] = [plainName(model.model), model.brand ?? name]
    const owners = byName.get(key) ?? []
    const found = { vendor, name: modelName(model.model, []), kind: model.device ?? entry.device }
    if (!owners.some((owner) => owner.vendor === vendor)) owners.push(found)
    byName.set(key, owners)
  })
)
const names = [...byName].filter(([key, owners]) => owners.length === 1 && NAMED.test(key))
// the brands' alternatives, the long ones spread where no brand template reads the pattern's groups
const alternatives = brands.flatMap((brand, n) =>
  branches(brand.entry.regex)
    .flatMap((source) => (brand.entry.model?.includes("$") === true ? [source] : spread(source, LONG)))
    .map((source) => [n, source] as const)
)
// brand n's models (none when it has none) and their filing when it has more than 8
const models = brands.map(({ entry }) => {
  const list = entry.models ?? []
  return { list, filing: list.length > 8 ? fileTexts(list.map((model) => model.regex)) : null }
})
// every pattern the service may run, timed on strings built from its own texts (devicePatternCost.ts): generation
// fails if one is super-linear within what the service lets it read
const [started, cpu] = [performance.now(), process.cpuUsage()]
const costs = checkPatternCosts([
  ...gates.map((source, n) => ({ label: `gate ${n}`, source })),
  ...alternatives.map(([n, source]) => ({ label: brands[n]!.name, source })),
  ...brands.flatMap(({ name, entry }) => [
    ...(entry.model?.includes("$") === true && branches(entry.regex).length > 1
      ? [{ label: `${name} (whole)`, source: entry.regex }]
      : []),
    ...(entry.models ?? []).map((model) => ({ label: `model of ${name}`, source: model.regex }))
  ])
])
const { user, system } = process.cpuUsage(cpu)
const seconds = (ms: number): string => (ms / 1000).toFixed(1)
console.log(
  `${costs.length} patterns timed in ${seconds((user + system) / 1000)} s of CPU (${seconds(performance.now() - started)} s), the costliest:`
)
console.log(costLines(costs, 5).join("\n"))
const filing = fileTexts(alternatives.map(([, text]) => text))

// the files: each read when first needed; the index, brands' models, the names
const source = `${PACKAGE} ${version} (MIT), Matomo device-detector's regexes (LGPL-3.0)`
const index: DeviceIndex = {
  source,
  stamp,
  gates,
  classes,
  brands: {
    names: brands.map(({ name }) => name),
    gates: brands.map(({ gate }) => gate),
    templates: brands.map(({ entry }) => entry.model ?? null),
    classes: brands.map(({ entry }) => classOf(entry.device))
  },
  alternatives: { brands: alternatives.map(([n]) => n), sources: alternatives.map(([, source]) => source) },
  filing: filingData(filing),
  tables: tablesData(tablesOf(filing.keys))
}
const brandModels = models.map(({ list, filing }): BrandModels => ({
  patterns: list.map((model) => model.regex),
  templates: list.map((model) => model.model ?? null),
  vendors: list.map((model) => model.brand ?? null),
  classes: list.map((model) => classOf(model.device)),
  filing: filing === null ? null : filingData(filing)
}))
const modelNames: ModelNames = {
  texts: names.map(([key]) => key),
  vendors: names.map(([, [owner]]) => owner!.vendor),
  names: names.map(([, [owner]]) => owner!.name),
  classes: names.map(([, [owner]]) => classOf(owner!.kind))
}
// brand n in brands file n % BRAND_FILES, in order: line floor(n / BRAND_FILES) there
const lines = (values: ReadonlyArray<unknown>) =>
  Buffer.from(values.map((value) => `${toJson(value)}\n`).join(""), "latin1")
const written: Array<readonly [string, Buffer]> = [
  [FILES.index, lines([index])],
  ...FILES.brands.map((path, k) => [path, lines(brandModels.filter((_, n) => n % BRAND_FILES === k))] as const),
  [FILES.names, lines([modelNames])]
]
mkdirSync(OUT, { recursive: true })
for (const [path, bytes] of written) writeFileSync(path, bytes)
writeFileSync(FILES.sums, sumText(written.map(([path, bytes]) => [basename(path), bytes])))
console.log(`${OUT}: ${brands.length} brands, ${alternatives.length} alternatives (${source})`)
