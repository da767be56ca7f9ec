/**
 * The brand and marketing name of a device from its user-agent string, by Matomo device-detector's device database
 * (LGPL-3.0) as node-device-detector ships it (MIT; pinned in package.json, read from node_modules, never copied
 * here). Its parsers run in Matomo's order (HbbTV and shell TVs only on their platform token, Facebook's notebooks
 * only on `FBMD/`, then consoles, car browsers, cameras, media players, mobiles); the first brand whose pattern
 * matches wins, then the first of its models. Matomo scans those ~2,200 brands and their ~20,000 models pattern by
 * pattern (about 2 ms a string); here each list is a `PatternIndex` (literal texts of each pattern, filed by their
 * first three characters), so only the few patterns whose texts occur in the string run. The data is loaded, and
 * each index built, on the first parse that needs it.
 */
import { makePatternIndex, type PatternIndex } from "./PatternIndex.ts"

interface ModelEntry {
  readonly regex: string
  readonly model?: string
  readonly brand?: string
}
interface BrandEntry extends ModelEntry {
  readonly models?: ReadonlyArray<ModelEntry>
}
type Collection = Readonly<Record<string, BrandEntry>>

export interface DeviceIdentity {
  /** the brand that sells the device */
  readonly brand: string
  /** its marketing name, "" when the database names none */
  readonly name: string
}

// Matomo's own wrapper: a pattern starts a token (node-device-detector's getBaseRegExp)
const compile = (source: string): RegExp =>
  new RegExp(`(?:^|[^A-Z0-9_-]|[^A-Z0-9-]_|sprd-|MZ-)(?:${source.replace(/\//g, "\\/").replace(/\+\+/g, "+")})`, "i")

// the brands the contract names otherwise (the brand that sells a BlackBerry is BlackBerry)
const brandNames: Readonly<Record<string, string>> = { RIM: "BlackBerry" }

// Matomo's model template: $1..$n from the match, "_" as a space, no trailing " TD"; "Build" is no model
const modelName = (template: string | undefined, match: RegExpExecArray): string => {
  if (template === undefined) return ""
  const name = template
    .replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? "")
    .replace(/_/g, " ")
    .replace(/ TD$/i, "")
    .trim()
  return name === "Build" ? "" : name
}

interface Brand {
  readonly name: string
  readonly entry: BrandEntry
  /** the parser's own condition (HbbTV, shell TV, Facebook notebook tokens), if it has one */
  readonly gate: string | undefined
  models?: PatternIndex<ModelEntry>
}

const collection = (file: string): Collection => {
  // a static path each, so `bun build --compile` bundles the data and evaluates it only when first required
  switch (file) {
    case "televisions":
      return require("node-device-detector/regexes/device/televisions.js")
    case "shell_tv":
      return require("node-device-detector/regexes/device/shell_tv.js")
    case "notebooks":
      return require("node-device-detector/regexes/device/notebooks.js")
    case "consoles":
      return require("node-device-detector/regexes/device/consoles.js")
    case "car_browsers":
      return require("node-device-detector/regexes/device/car_browsers.js")
    case "cameras":
      return require("node-device-detector/regexes/device/cameras.js")
    case "portable_media_player":
      return require("node-device-detector/regexes/device/portable_media_player.js")
    default:
      return require("node-device-detector/regexes/device/mobiles.js")
  }
}

const gates = {
  hbbTv: "(?:HbbTV|SmartTvA)/([1-9]{1}(?:[.][0-9]{1}){1,2})",
  shellTv: "[a-z]+[ _]Shell[ _]\\w{6}|tclwebkit(\\d+[.\\d]*)",
  notebook: "FBMD/"
}
const gateTests = new Map(Object.values(gates).map((gate) => [gate, compile(gate)]))

const brands = (file: string, gate?: string): Array<Brand> =>
  Object.entries(collection(file)).map(([name, entry]): Brand => ({ name, entry, gate }))

// one index over every parser's brands, in Matomo's order of parsers
let index: PatternIndex<Brand> | undefined
const load = (): PatternIndex<Brand> =>
  (index ??= makePatternIndex(
    [
      ...brands("televisions", gates.hbbTv),
      ...brands("shell_tv", gates.shellTv),
      ...brands("notebooks", gates.notebook),
      ...brands("consoles"),
      ...brands("car_browsers"),
      ...brands("cameras"),
      ...brands("portable_media_player"),
      ...brands("mobiles")
    ],
    (brand) => brand.entry.regex,
    compile
  ))

/** The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. */
const identify = (
  ua: string,
  first: <A>(index: PatternIndex<A>, accept?: (entry: A) => boolean) => ReturnType<PatternIndex<A>["first"]>
): DeviceIdentity | undefined => {
  const passed = new Map<string, boolean>()
  const open = (gate: string): boolean => {
    let pass = passed.get(gate)
    if (pass === undefined) passed.set(gate, (pass = gateTests.get(gate)!.test(ua)))
    return pass
  }
  const found = first(load(), (brand) => brand.gate === undefined || open(brand.gate))
  if (found === undefined) return undefined
  const brand = found.entry
  let [vendor, name] = [brand.name, modelName(brand.entry.model, found.match)]
  if (brand.entry.models !== undefined) {
    brand.models ??= makePatternIndex(brand.entry.models, (model) => model.regex, compile)
    const model = first(brand.models)
    if (model !== undefined) {
      name = modelName(model.entry.model, model.match)
      vendor = model.entry.brand ?? vendor
    }
  }
  // Matomo's rule: an iPhone or iPad named in an Android string is a fake
  if (vendor === "Apple" && /android /i.test(ua)) return undefined
  if (vendor === "Unknown" || vendor === "") return undefined
  return { brand: brandNames[vendor] ?? vendor, name }
}

/** The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. */
export const identifyDevice = (ua: string): DeviceIdentity | undefined => {
  const lower = ua.toLowerCase()
  return identify(ua, (index, accept) => index.first(ua, lower, accept))
}

/** The same answer by running every pattern in order, as Matomo does: what `scripts/deviceIndexCheck.ts` compares. */
export const scanDevice = (ua: string): DeviceIdentity | undefined =>
  identify(ua, (index, accept) => index.scan(ua, accept))
