/**
 * The brand and marketing name of a device from its user-agent string, by Matomo device-detector's device database
 * (LGPL-3.0) as node-device-detector ships it (MIT; pinned in package.json, read from node_modules, never copied
 * here). Its parsers run in Matomo's order (HbbTV and shell TVs only on their platform token, Facebook's notebooks
 * only on `FBMD/`, then consoles, car browsers, cameras, media players, mobiles); the first brand whose pattern
 * matches wins, then the first of its models. Matomo scans those ~2,000 brands and ~15,000 models pattern by pattern
 * (about 2 ms a string); here the brands' patterns, split into their top-level alternatives, are one `PatternIndex`
 * and each brand with more than 8 models has its own (see PatternIndex.ts), so only the few patterns whose literal
 * texts occur in the string run (about 5 a string on browscap's). Reading the data and building the brand index
 * takes 0.1-0.5 s of work, a large brand's model index up to ~50 ms (Samsung's 733 models): done in steps of at most
 * a few hundred microseconds each (`Steps`), which the service runs in slices from its start, handing the event loop
 * back between them (UserAgents.ts); `lookUpDevice` never builds, it names what it needs (`Unbuilt`).
 * `identifyDevice`, for scripts and tests, builds what it needs at once.
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
import { branches, finish, makePatternIndex, type PatternIndex, patternIndexSteps, type Steps } from "./PatternIndex.ts"

interface ModelEntry {
  readonly regex: string
  readonly model?: string
  readonly brand?: string
}
interface BrandEntry extends ModelEntry {
  readonly models?: ReadonlyArray<ModelEntry>
}

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

// a brand's name where the file (pretty-printed, two spaces an indent) starts its entry
const BRAND = /^ {2}("(?:[^"\\]|\\.)*"): \{$/gm

/**
 * A file's brands in order, each brand's entry parsed on its own, a step a brand (mobiles.js is 1.7 MB): the entries
 * are found by a regular expression over the file's layout, native code, where a scan in JavaScript cost ~10 MB of
 * compiled code. A file laid out otherwise (an entry that does not parse) is parsed whole.
 */
function* collection(file: keyof typeof files): Steps<Array<[string, BrandEntry]>> {
  const text = readFileSync(files[file], "utf8")
  yield
  const end = text.lastIndexOf("}")
  const brand = new RegExp(BRAND.source, BRAND.flags)
  try {
    const out: Array<[string, BrandEntry]> = []
    // each entry once the next one's start (or the file's end) is found
    let last = brand.exec(text)
    // nothing but the object's start before the first entry
    if (last === null || text.slice(text.indexOf("{") + 1, last.index).trim() !== "") throw text
    while (last !== null) {
      const next = brand.exec(text)
      const body = text.slice(last.index + last[0].length - 1, next?.index ?? end).trimEnd()
      out.push([JSON.parse(last[1]!) as string, JSON.parse(body.replace(/,$/, "")) as BrandEntry])
      last = next
      yield
    }
    // an entry the expression missed would be inside the one before it, which would not parse
    return out
  } catch {
    return Object.entries(JSON.parse(text.slice(text.indexOf("{"), end + 1)) as Record<string, BrandEntry>)
  }
}

const gates = {
  hbbTv: "(?:HbbTV|SmartTvA)/([1-9]{1}(?:[.][0-9]{1}){1,2})",
  shellTv: "[a-z]+[ _]Shell[ _]\\w{6}|tclwebkit(\\d+[.\\d]*)",
  notebook: "FBMD/"
}
const gateTests = new Map(Object.values(gates).map((gate) => [gate, compile(gate)]))

// every parser's brands, in Matomo's order of parsers
let all: Array<Brand> | undefined
function* allBrands(): Steps<Array<Brand>> {
  if (all !== undefined) return all
  const out: Array<Brand> = []
  for (const [file, gate] of [
    ["televisions", gates.hbbTv],
    ["shell_tv", gates.shellTv],
    ["notebooks", gates.notebook],
    ["consoles"],
    ["car_browsers"],
    ["cameras"],
    ["portable_media_player"],
    ["mobiles"]
  ] as const)
    for (const [name, entry] of yield* collection(file)) out.push({ name, entry, gate })
  return (all ??= out)
}

function* branchesOf(brands: ReadonlyArray<Brand>): Steps<Array<Branch>> {
  const out: Array<Branch> = []
  for (const brand of brands) {
    for (const source of branches(brand.entry.regex)) out.push({ brand, source })
    yield
  }
  return out
}

// one index over the alternatives of every brand's pattern, in order: the first that matches names the brand
let index: PatternIndex<Branch> | undefined
function* indexSteps(): Steps<PatternIndex<Branch>> {
  if (index !== undefined) return index
  const brands = yield* allBrands()
  const built = yield* patternIndexSteps(yield* branchesOf(brands), (branch) => branch.source, compile)
  return (index ??= built)
}
// the brands' whole patterns scanned in order, as Matomo does, for scripts/deviceIndexCheck.ts
let wholeIndex: PatternIndex<Brand> | undefined
const loadWhole = (): PatternIndex<Brand> =>
  (wholeIndex ??= makePatternIndex(finish(allBrands()), (brand) => brand.entry.regex, compile))

// a brand with more than 8 models has an index of them, built on the first string of that brand
const modelsIndexed = (brand: Brand): boolean => (brand.entry.models?.length ?? 0) > 8
function* modelSteps(brand: Brand): Steps<PatternIndex<ModelEntry>> {
  if (brand.models !== undefined) return brand.models
  const models = brand.entry.models ?? []
  const built = yield* patternIndexSteps(models, (model) => model.regex, compile, models.length > 8)
  return (brand.models ??= built)
}

// a build that threw (a data file missing or unreadable): lookups answer without the database from then on, as
// the parse that threw did
let broken = false
function* guarded<A>(steps: Steps<A>): Steps<void> {
  try {
    yield* steps
  } catch {
    broken = true
  }
}

/**
 * What a lookup that may not build needs built first: the brand index, or one brand's model index. `steps` builds
 * it (a step at most a few hundred microseconds; `finish` runs them at once); `key` is the same object for the same
 * build. Thrown by `lookUpDevice`, never by `identifyDevice`.
 */
export class Unbuilt {
  constructor(
    readonly key: object,
    readonly steps: () => Steps<void>
  ) {}
}
const INDEX = new Unbuilt({}, () => guarded(indexSteps()))
const unbuiltModels = new WeakMap<Brand, Unbuilt>()

/** The build a service starts at once: the brand index (0.3-0.5 s of work on this machine). */
export const indexBuild: Unbuilt = INDEX

type Find = <A>(index: PatternIndex<A>, accept?: (entry: A) => boolean) => ReturnType<PatternIndex<A>["first"]>

/** The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. */
const identify = (
  ua: string,
  first: Find,
  findBrand: (
    open: (brand: Brand) => boolean
  ) => { readonly brand: Brand; readonly match: RegExpExecArray } | undefined,
  modelIndex: (brand: Brand) => PatternIndex<ModelEntry>
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
    const model = first(modelIndex(brand))
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

const byIndex = (
  ua: string,
  brandIndex: () => PatternIndex<Branch>,
  modelIndex: (brand: Brand) => PatternIndex<ModelEntry>
): DeviceIdentity | undefined => {
  const lower = ua.toLowerCase()
  const first: Find = (index, accept) => index.first(ua, lower, accept)
  return identify(
    ua,
    first,
    (open) => {
      const found = first(brandIndex(), (branch) => open(branch.brand))
      if (found === undefined) return undefined
      const brand = found.entry.brand
      // a model template's $1 counts the groups of the whole pattern: match it again, once a string at most
      if (brand.entry.model?.includes("$") !== true) return { brand, match: found.match }
      return { brand, match: (brand.whole ??= compile(brand.entry.regex)).exec(ua) ?? found.match }
    },
    modelIndex
  )
}

/**
 * The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. The
 * first call reads the data and builds the brand index at once (0.3-0.5 s), a brand's first string its model index:
 * for scripts and tests; the service uses `lookUpDevice`.
 */
export const identifyDevice = (ua: string): DeviceIdentity | undefined =>
  byIndex(
    ua,
    () => finish(indexSteps()),
    (brand) => finish(modelSteps(brand))
  )

/**
 * `identifyDevice`, but it builds nothing that takes time: it throws the `Unbuilt` it needs first (the brand index,
 * or the model index of a brand with more than 8 models), for the caller to build in steps and ask again.
 */
export const lookUpDevice = (ua: string): DeviceIdentity | undefined => {
  if (broken) return undefined
  return byIndex(
    ua,
    () => {
      if (index === undefined) throw INDEX
      return index
    },
    (brand) => {
      if (brand.models !== undefined) return brand.models
      if (!modelsIndexed(brand)) return finish(modelSteps(brand))
      let need = unbuiltModels.get(brand)
      if (need === undefined) unbuiltModels.set(brand, (need = new Unbuilt(brand, () => guarded(modelSteps(brand)))))
      throw need
    }
  )
}

/** The same answer by running every pattern in order, as Matomo does: what `scripts/deviceIndexCheck.ts` compares. */
export const scanDevice = (ua: string): DeviceIdentity | undefined => {
  const first: Find = (index, accept) => index.scan(ua, accept)
  return identify(
    ua,
    first,
    (open) => {
      const found = first(loadWhole(), open)
      return found === undefined ? undefined : { brand: found.entry, match: found.match }
    },
    (brand) => finish(modelSteps(brand))
  )
}
