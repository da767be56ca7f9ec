/** A device's brand and name by Matomo's database: the first brand whose pattern matches, then its first model. */
import { allPatterns, modelName, plainName, RECENT, recentPatterns, WINDOW } from "./Patterns.ts"
import { type Found, makePatternIndex, type PatternIndex } from "./PatternIndex.ts"
import type { Brand, Database } from "./Build.ts"

export interface DeviceIdentity {
  readonly brand: string
  /** "" when the database names none */
  readonly name: string
  /** the text the name was found for (the model's match, or the brand's where its template names it), else "" */
  readonly code: string
  /** Matomo's class of the device ("smartphone", "tablet", "tv"...), "" if none */
  readonly kind: string
  /** whether one of the brand's models matched, or the brand has none: else the class is the brand's guess */
  readonly modelled: boolean
}

/** `model`: the model the library read, looked up by name where no brand's pattern matches */
export type Lookup = (ua: string, model?: string) => DeviceIdentity | undefined

export type Lookups = ReturnType<typeof lookups>

interface Search {
  readonly model: (models: PatternIndex<number>, ua: string, lower: string) => Found<number>
  readonly brand: (ua: string, lower: string, open: (brand: Brand) => boolean) => Found<Brand>
}

/** A device its string names by the model's name alone ("Fire Phone"), with no brand or code the patterns know. */
const byName = (model: string | undefined, db: Database): DeviceIdentity | undefined => {
  const known = model === undefined || model.length < 3 ? undefined : db.named().get(plainName(model))
  if (known === undefined) return undefined
  return { brand: known.vendor, name: known.name, code: model!, kind: known.kind, modelled: true }
}

/** Where every lookup enters: it reads the start of the string only (`WINDOW`). */
const identify = (text: string, db: Database, search: Search, libraryModel?: string): DeviceIdentity | undefined => {
  const ua = text.length > WINDOW ? text.slice(0, WINDOW) : text
  const lower = ua.toLowerCase()
  const passed: Array<boolean | undefined> = []
  const open = (brand: Brand): boolean => brand.gate < 0 || (passed[brand.gate] ??= db.gates[brand.gate]!.test(ua))
  const found = search.brand(ua, lower, open)
  if (found === undefined) return byName(libraryModel, db)
  const brand = found.entry
  let [vendor, name] = [brand.name, modelName(brand.model, found.match)]
  const models = db.models(brand)
  const model = models === null ? undefined : search.model(models.index, ua, lower)
  let code = name === "" ? "" : found.match[0]
  let kind = brand.kind
  if (models !== null && model !== undefined) {
    code = model.match[0]
    name = modelName(models.templates[model.entry] ?? null, model.match)
    vendor = models.vendors[model.entry] ?? vendor
    kind = models.kinds[model.entry] || kind
  }
  const modelled = models === null || model !== undefined
  // Matomo's rule: an iPhone or iPad named in an Android string is a fake
  if (vendor === "Apple" && /android /i.test(ua)) return undefined
  if (vendor === "Unknown" || vendor === "") return undefined
  // the brand that sells a BlackBerry is BlackBerry
  return { brand: vendor === "RIM" ? "BlackBerry" : vendor, name, code, kind, modelled }
}

export const lookups = (db: Database) => {
  const recent = recentPatterns(RECENT)
  const byIndex: Search = {
    model: (models, ua, lower) => models.first(ua, lower, recent),
    brand: (ua, lower, open) => {
      const found = db.index.first(ua, lower, recent, (b) => open(db.brands[db.brandOf[b]!]!))
      if (found === undefined) return undefined
      const brand = db.brands[db.brandOf[found.entry]!]!
      // a model template's $1 counts the groups of the whole pattern: match it again, once a string at most
      if (brand.model?.includes("$") !== true) return { entry: brand, match: found.match }
      return { entry: brand, match: recent(db.regex(brand)).exec(ua) ?? found.match }
    }
  }
  let scanning: Search | undefined
  const scan = (): Search => {
    const whole = makePatternIndex(db.brands, db.regex)
    const compile = allPatterns()
    return {
      model: (models, ua) => models.scan(ua, compile),
      brand: (ua, _lower, open) => whole.scan(ua, compile, open)
    }
  }
  const byIndexLookup: Lookup = (ua, model) => identify(ua, db, byIndex, model)
  // every pattern in order, as Matomo runs them: what the index is checked against
  const scanLookup: Lookup = (ua, model) => {
    scanning ??= scan()
    return identify(ua, db, scanning, model)
  }
  return { identify: byIndexLookup, scan: scanLookup }
}
