/**
 * Generates the device database the service loads, `generated/devices.bin` (git-ignored), from Matomo
 * device-detector's device regexes as the pinned node-device-detector package ships them (node_modules):
 *
 *   bun scripts/deviceData.ts           # writes it when it is missing or out of date (install, build and tests run this)
 *   bun scripts/deviceData.ts --force   # writes it anyway
 *   bun scripts/deviceData.ts --force --out FILE   # writes it to FILE instead
 *
 * The file is a line of JSON, the header: the source and its version, the parsers' gates, every brand in Matomo's
 * order of parsers ([name, gate or -1, model template or null]), the top-level alternatives of the brands' patterns,
 * the long ones spread into pieces (`spread`, PatternFiling.ts), in order ([brand, pattern]: a brand matches where one
 * of its alternatives does), their `Filing` (PatternIndex.ts)
 * and where each brand's block ends (`blocks`). Then, after the newline, the blocks: brand n's models ([pattern, model
 * template, brand or null] each) and their filing when it has more than 8, as JSON (`null` when it has none),
 * deflated. Reading the patterns for their texts (PatternTexts.ts) is done here, once, so the service only loads the
 * result.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { deflateRawSync } from "node:zlib"
import { branches, fileTexts, spread } from "../src/Tools/UserAgent/PatternFiling.ts"

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
// the filing's format
const stamp = ["PatternTexts", "PatternFiling", "PatternWindows", "PatternIndex"]
  .reduce(
    (hash, file) => hash.update(readFileSync(new URL(`../src/Tools/UserAgent/${file}.ts`, import.meta.url).pathname)),
    createHash("sha256")
      .update(version)
      .update(readFileSync(new URL(import.meta.url).pathname))
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
const header = {
  source: `${PACKAGE} ${version} (MIT), Matomo device-detector's regexes (LGPL-3.0)`,
  stamp,
  gates,
  brands: brands.map(({ name, gate, entry }) => [name, gate, entry.model ?? null]),
  branches: alternatives,
  filing: fileTexts(alternatives.map(([, source]) => source))
}
// each brand's models and their filing, as JSON, deflated on its own: 2 MB of text held as 0.8 MB, a brand's block
// inflated on its first string
const blocks = brands.map(({ entry }) => {
  const models = entry.models
  const list = models?.map((model) => [model.regex, model.model ?? null, model.brand ?? null])
  const filing = models !== undefined && models.length > 8 ? fileTexts(models.map((model) => model.regex)) : null
  return deflateRawSync(JSON.stringify(list === undefined ? null : [list, filing]))
})
let end = 0
const withEnds = { ...header, blocks: blocks.map((block) => (end += block.length)) }
// the header in ASCII (other characters as JSON escapes): the service reads it as Latin-1, one byte a character
const ascii = JSON.stringify(withEnds).replace(
  /[^\x00-\x7f]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
)
mkdirSync(dirname(OUT), { recursive: true })
writeFileSync(OUT, Buffer.concat([Buffer.from(`${ascii}\n`, "latin1"), ...blocks]))
console.log(`${OUT}: ${brands.length} brands, ${alternatives.length} alternatives (${header.source})`)
