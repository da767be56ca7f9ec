/**
 * The brand and marketing name of a device from its user-agent string, by Matomo device-detector's device database
 * (LGPL-3.0) as node-device-detector ships it (MIT; pinned in package.json, read from node_modules, never copied
 * here). Its parsers run in Matomo's order (HbbTV and shell TVs only on their platform token, Facebook's notebooks
 * only on `FBMD/`, then consoles, car browsers, cameras, media players, mobiles); the first brand whose pattern
 * matches wins, then the first of its models. Matomo scans those ~2,000 brands and ~15,000 models pattern by pattern
 * (about 2 ms a string); here the brands' patterns, split into their top-level alternatives, are one `PatternIndex`
 * and each brand with more than 8 models has its own (see PatternIndex.ts), so only the few patterns whose literal
 * texts occur in the string run (about 5 a string on browscap's). The data is read, and each index built, on the
 * first parse that needs it (~0.3 s, once).
 */
/// <reference path="./DeviceData.d.ts" />
import { readFileSync } from "node:fs"
import cameras from "node-device-detector/regexes/device/cameras.js" with { type: "file" }
import car_browsers from "node-device-detector/regexes/device/car_browsers.js" with { type: "file" }
import consoles from "node-device-detector/regexes/device/consoles.js" with { type: "file" }
import mobiles from "node-device-detector/regexes/device/mobiles.js" with { type: "file" }
import notebooks from "node-device-detector/regexes/device/notebooks.js" with { type: "file" }
import portable_media_player from "node-device-detector/regexes/device/portable_media_player.js" with { type: "file" }
import shell_tv from "node-device-detector/regexes/device/shell_tv.js" with { type: "file" }
import televisions from "node-device-detector/regexes/device/televisions.js" with { type: "file" }
import { branches, makePatternIndex, type PatternIndex } from "./PatternIndex.ts"

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
  // most templates are a name as it is
  if (!/[$_]| td$/i.test(template)) return template === "Build" ? "" : template.trim()
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
  whole?: RegExp
}

/** One top-level alternative of a brand's pattern: the brand matches where any of them does. */
interface Branch {
  readonly brand: Brand
  readonly source: string
}

// The data files as files (embedded by `bun build --compile`), read on first use: their object literals are JSON,
// and JSON.parse of the text costs half the memory of evaluating them as modules
const files = { cameras, car_browsers, consoles, mobiles, notebooks, portable_media_player, shell_tv, televisions }

const collection = (file: keyof typeof files): Collection => {
  const text = readFileSync(files[file], "utf8")
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1))
}

const gates = {
  hbbTv: "(?:HbbTV|SmartTvA)/([1-9]{1}(?:[.][0-9]{1}){1,2})",
  shellTv: "[a-z]+[ _]Shell[ _]\\w{6}|tclwebkit(\\d+[.\\d]*)",
  notebook: "FBMD/"
}
const gateTests = new Map(Object.values(gates).map((gate) => [gate, compile(gate)]))

const brands = (file: keyof typeof files, gate?: string): Array<Brand> =>
  Object.entries(collection(file)).map(([name, entry]): Brand => ({ name, entry, gate }))

// every parser's brands, in Matomo's order of parsers
let all: Array<Brand> | undefined
const allBrands = (): Array<Brand> =>
  (all ??= [
    ...brands("televisions", gates.hbbTv),
    ...brands("shell_tv", gates.shellTv),
    ...brands("notebooks", gates.notebook),
    ...brands("consoles"),
    ...brands("car_browsers"),
    ...brands("cameras"),
    ...brands("portable_media_player"),
    ...brands("mobiles")
  ])

// one index over the alternatives of every brand's pattern, in order: the first that matches names the brand
let index: PatternIndex<Branch> | undefined
const load = (): PatternIndex<Branch> =>
  (index ??= makePatternIndex(
    allBrands().flatMap((brand) => branches(brand.entry.regex).map((source) => ({ brand, source }))),
    (branch) => branch.source,
    compile
  ))
// the brands' whole patterns scanned in order, as Matomo does, for scripts/deviceIndexCheck.ts
let wholeIndex: PatternIndex<Brand> | undefined
const loadWhole = (): PatternIndex<Brand> =>
  (wholeIndex ??= makePatternIndex(allBrands(), (brand) => brand.entry.regex, compile))

type Find = <A>(index: PatternIndex<A>, accept?: (entry: A) => boolean) => ReturnType<PatternIndex<A>["first"]>

/** The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. */
const identify = (
  ua: string,
  first: Find,
  findBrand: (open: (brand: Brand) => boolean) => { readonly brand: Brand; readonly match: RegExpExecArray } | undefined
): DeviceIdentity | undefined => {
  const passed = new Map<string, boolean>()
  const open = (brand: Brand): boolean => {
    if (brand.gate === undefined) return true
    let pass = passed.get(brand.gate)
    if (pass === undefined) passed.set(brand.gate, (pass = gateTests.get(brand.gate)!.test(ua)))
    return pass
  }
  const found = findBrand(open)
  if (found === undefined) return undefined
  const brand = found.brand
  let [vendor, name] = [brand.name, modelName(brand.entry.model, found.match)]
  if (brand.entry.models !== undefined) {
    brand.models ??= makePatternIndex(
      brand.entry.models,
      (model) => model.regex,
      compile,
      brand.entry.models.length > 8
    )
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
  const first: Find = (index, accept) => index.first(ua, lower, accept)
  return identify(ua, first, (open) => {
    const found = first(load(), (branch) => open(branch.brand))
    if (found === undefined) return undefined
    const brand = found.entry.brand
    // a model template's $1 counts the groups of the whole pattern: match it again, once a string at most
    if (brand.entry.model?.includes("$") !== true) return { brand, match: found.match }
    return { brand, match: (brand.whole ??= compile(brand.entry.regex)).exec(ua) ?? found.match }
  })
}

/** The same answer by running every pattern in order, as Matomo does: what `scripts/deviceIndexCheck.ts` compares. */
export const scanDevice = (ua: string): DeviceIdentity | undefined => {
  const first: Find = (index, accept) => index.scan(ua, accept)
  return identify(ua, first, (open) => {
    const found = first(loadWhole(), open)
    return found === undefined ? undefined : { brand: found.entry, match: found.match }
  })
}
