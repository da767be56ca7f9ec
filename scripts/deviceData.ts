/**
 * Generates the device database the service loads, `generated/devices.bin` (git-ignored), from Matomo
 * device-detector's device regexes as the pinned node-device-detector package ships them (node_modules):
 *
 *   bun scripts/deviceData.ts           # writes it when it is missing or out of date (install, build and tests run this)
 *   bun scripts/deviceData.ts --force   # writes it anyway
 *   bun scripts/deviceData.ts --force --out FILE   # writes it to FILE instead
 *
 * The file is DeviceFile.ts's layout. Its head: the source and its version, the parsers' gates, every brand in
 * Matomo's order of parsers ([name, gate or -1, model template or null]). Its sections: the top-level alternatives
 * of the brands' patterns, the long ones spread into pieces (`spread`, PatternFiling.ts), in order (`branch.brand`,
 * `branch.ends` in `branch.text`, in Latin-1 with other characters escaped: a brand matches where one of its
 * alternatives does), their `Filing`
 * (PatternIndex.ts, `filing.*`), and each brand's block of models (`blocks`, ending at `blocks.ends`). Reading the
 * patterns for their texts (PatternTexts.ts) is done here, once, so the service only loads the result. Before it
 * writes, it times every pattern on hostile strings of the length the service lets it read (devicePatternCost.ts)
 * and fails if one costs more than the bound.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { deflateRawSync } from "node:zlib"
import { escaped, filingSections, latin1, writeSections } from "../src/Tools/UserAgent/DeviceFile.ts"
import { branches, fileTexts, spread } from "../src/Tools/UserAgent/PatternFiling.ts"
import { checkPatternCosts, costLines } from "./devicePatternCost.ts"

const outAt = process.argv.indexOf("--out")
const OUT = outAt === -1 ? new URL("../generated/devices.bin", import.meta.url).pathname : process.argv[outAt + 1]!
const PACKAGE = "node-device-detector"
// an alternative longer than this is spread into pieces (PatternFiling.ts)
const LONG = 256

interface ModelEntry {
  readonly regex: string
  readonly model?: string
  readonly brand?: string
}
interface BrandEntry extends ModelEntry {
  readonly models?: ReadonlyArray<ModelEntry>
}

const packageDir = dirname(Bun.resolveSync(`${PACKAGE}/package.json`, import.meta.dir))
const version: string = JSON.parse(readFileSync(`${packageDir}/package.json`, "utf8")).version
// what the file depends on: the package's version, this script and the code that reads the patterns and defines
// the file's layout; and the check it passed, and the window it was checked at (DevicePatterns.ts)
const stamp = ["PatternTexts", "PatternFiling", "PatternWindows", "PatternIndex", "DeviceFile", "DevicePatterns"]
  .reduce(
    (hash, file) => hash.update(readFileSync(new URL(`../src/Tools/UserAgent/${file}.ts`, import.meta.url).pathname)),
    createHash("sha256")
      .update(version)
      .update(readFileSync(new URL(import.meta.url).pathname))
      .update(readFileSync(new URL("./devicePatternCost.ts", import.meta.url).pathname))
  )
  .digest("hex")
  .slice(0, 16)

const current = (): boolean => {
  if (!existsSync(OUT)) return false
  const file = readFileSync(OUT)
  return JSON.parse(file.toString("latin1", 0, file.indexOf(10))).stamp === stamp
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
// the brands' alternatives, the long ones spread where no brand template reads the pattern's groups
const alternatives = brands.flatMap((brand, n) =>
  branches(brand.entry.regex)
    .flatMap((source) => (brand.entry.model?.includes("$") === true ? [source] : spread(source, LONG)))
    .map((source) => [n, source] as const)
)
// a block: brand n's models in its head, [pattern, model template, brand or null] each (null when it has none), and
// their filing's sections when it has more than 8, deflated on its own: 2 MB of text held as 0.8 MB, inflated on the
// brand's first string
const blocks = brands.map(({ entry }) => {
  const models = entry.models
  const list = models?.map((model) => [model.regex, model.model ?? null, model.brand ?? null]) ?? null
  const filing = models !== undefined && models.length > 8 ? fileTexts(models.map((model) => model.regex)) : undefined
  return deflateRawSync(writeSections({ models: list }, filing === undefined ? {} : filingSections(filing, "")))
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
let [end, blockEnd] = [0, 0]
const source = `${PACKAGE} ${version} (MIT), Matomo device-detector's regexes (LGPL-3.0)`
const file = writeSections(
  { source, stamp, gates, brands: brands.map(({ name, gate, entry }) => [name, gate, entry.model ?? null]) },
  {
    "branch.brand": Int32Array.from(alternatives, ([n]) => n),
    "branch.ends": Int32Array.from(alternatives, ([, text]) => (end += escaped(text).length)),
    "branch.text": latin1(escaped(alternatives.map(([, text]) => text).join(""))),
    ...filingSections(fileTexts(alternatives.map(([, text]) => text)), "filing."),
    "blocks.ends": Int32Array.from(blocks, (block) => (blockEnd += block.length)),
    blocks: Buffer.concat(blocks)
  }
)
mkdirSync(dirname(OUT), { recursive: true })
writeFileSync(OUT, file)
console.log(`${OUT}: ${brands.length} brands, ${alternatives.length} alternatives (${source})`)
