/**
 * The brand and marketing name of a device from its user-agent string, by Matomo device-detector's device database
 * (LGPL-3.0) as node-device-detector ships it (MIT), which DeviceLoad.ts loads. Its parsers run in Matomo's order
 * (HbbTV and shell TVs only on their platform token, Facebook's notebooks only on `FBMD/`, then consoles, car
 * browsers, cameras, media players, mobiles); the first brand whose pattern matches wins, then the first of its
 * models. Matomo scans those ~2,300 brands and ~15,000 models pattern by pattern (about 2 ms a string); here the
 * brands' patterns, split into their top-level alternatives, are one `PatternIndex`, and each brand with more than 8
 * models has its own, so only the few patterns whose literal texts occur in the string run (about 5 a string on
 * browscap's). The service loads the brand index (~7 ms, in steps: Steps.ts) on the first parse that needs it,
 * handing the event loop back between them (DeviceBuilds.ts): `lookUpDevice` never loads, it names what it needs
 * (`Unbuilt`); `identifyDevice`, for scripts and tests, loads at once.
 */
import { type Brand, type Database, load, loaded, modelsOf } from "./DeviceLoad.ts"
import { allPatterns, modelName, RECENT, recentPatterns, WINDOW } from "./DevicePatterns.ts"
import { type Compile, makePatternIndex, type PatternIndex } from "./PatternIndex.ts"
import { finish, type Steps, Unbuilt } from "./Steps.ts"

export interface DeviceIdentity {
  /** the brand that sells the device */
  readonly brand: string
  /** its marketing name, "" when the database names none */
  readonly name: string
}

// the brands the contract names otherwise (the brand that sells a BlackBerry is BlackBerry)
const brandNames: Readonly<Record<string, string>> = { RIM: "BlackBerry" }

// a load that threw (the file unreadable or malformed): lookups answer without the database from then on
let broken = false
function* guarded<A>(steps: Steps<A>): Steps<void> {
  try {
    yield* steps
  } catch {
    broken = true
  }
}

/** The load of the brand index, which the first lookup needs. */
export const indexBuild: Unbuilt = new Unbuilt(() => guarded(load()))

/** The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. */
const identify = (
  ua: string,
  db: Database,
  first: <A>(index: PatternIndex<A>) => ReturnType<PatternIndex<A>["first"]>,
  byBrand: (open: (brand: Brand) => boolean) => { readonly brand: Brand; readonly match: RegExpExecArray } | undefined
): DeviceIdentity | undefined => {
  const passed: Array<boolean | undefined> = []
  const open = (brand: Brand): boolean => brand.gate < 0 || (passed[brand.gate] ??= db.gates[brand.gate]!.test(ua))
  const found = byBrand(open)
  if (found === undefined) return undefined
  const brand = found.brand
  let [vendor, name] = [brand.name, modelName(brand.model, found.match)]
  const models = modelsOf(db, brand)
  if (models !== null) {
    const model = first(models)
    if (model !== undefined) {
      name = modelName(model.entry[1], model.match)
      vendor = model.entry[2] ?? vendor
    }
  }
  // Matomo's rule: an iPhone or iPad named in an Android string is a fake
  if (vendor === "Apple" && /android /i.test(ua)) return undefined
  if (vendor === "Unknown" || vendor === "") return undefined
  return { brand: brandNames[vendor] ?? vendor, name }
}

// the patterns the service runs, the most recent kept compiled
const recent = recentPatterns(RECENT)

// the start of the string, which is all the patterns read (`WINDOW`)
const windowed = (ua: string): string => (ua.length > WINDOW ? ua.slice(0, WINDOW) : ua)

const byIndex = (text: string, db: Database, compile: Compile): DeviceIdentity | undefined => {
  const ua = windowed(text)
  const lower = ua.toLowerCase()
  return identify(
    ua,
    db,
    (index) => index.first(ua, lower, compile),
    (open) => {
      const found = db.index.first(ua, lower, compile, (b) => open(db.brands[db.brandOf[b]!]!))
      if (found === undefined) return undefined
      const brand = db.brands[db.brandOf[found.entry]!]!
      // a model template's $1 counts the groups of the whole pattern: match it again, once a string at most
      if (brand.model?.includes("$") !== true) return { brand, match: found.match }
      return { brand, match: compile((brand.whole ??= db.regex(brand))).exec(ua) ?? found.match }
    }
  )
}

/**
 * The device's brand and marketing name as Matomo's database knows them, or undefined when it names no brand. The
 * first call loads the brand index at once: for scripts and tests; the service uses `lookUpDevice`.
 */
export const identifyDevice = (ua: string): DeviceIdentity | undefined => byIndex(ua, finish(load()), recent)

/** `identifyDevice`, but it loads nothing: until the brand index is loaded it throws the `Unbuilt` that loads it. */
export const lookUpDevice = (ua: string): DeviceIdentity | undefined => {
  if (broken) return undefined
  const database = loaded()
  if (database === undefined) throw indexBuild
  return byIndex(ua, database, recent)
}

// the brands' whole patterns scanned in order, as Matomo does, every pattern kept compiled: for scripts and tests
let scanning: { readonly whole: PatternIndex<Brand>; readonly compile: Compile } | undefined

/** The same answer by running every pattern in order, as Matomo does: what `scripts/deviceIndexCheck.ts` compares. */
export const scanDevice = (text: string): DeviceIdentity | undefined => {
  const [ua, db] = [windowed(text), finish(load())]
  const { whole, compile } = (scanning ??= {
    whole: makePatternIndex(db.brands, (brand) => (brand.whole ??= db.regex(brand))),
    compile: allPatterns()
  })
  return identify(
    ua,
    db,
    (index) => index.scan(ua, compile),
    (open) => {
      const found = whole.scan(ua, compile, open)
      return found === undefined ? undefined : { brand: found.entry, match: found.match }
    }
  )
}
