/**
 * The labelled corpora `bun run accuracy` measures: JSON-lines files, and two derived at run time from packages
 * (never written to disk): the `user-agents` traffic data, labelled by its own device category, and the strings of
 * `crawler-user-agents`, all bots.
 */
import crawlers from "crawler-user-agents"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import UserAgent from "user-agents"

export interface Labelled {
  readonly ua: string
  readonly browser?: string | null
  readonly os?: string | null
  readonly deviceType?: string | null
  readonly bot?: boolean | null
}

export interface Corpus {
  readonly name: string
  readonly cases: ReadonlyArray<Labelled>
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export const readJsonLines = (path: string): Corpus => ({
  name: path,
  cases: readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))
})

/** The built corpora (`scripts/.corpora/`, git-ignored): the files given, else every one there whose name `fits`. */
export const builtCorpora = (given: ReadonlyArray<string>, fits: RegExp = /\.jsonl$/): Array<string> => {
  if (given.length > 0) return [...given]
  const dir = here(".corpora/")
  return readdirSync(dir)
    .filter((file) => fits.test(file))
    .map((file) => `${dir}${file}`)
}

const deviceOf: Record<string, string> = { mobile: "Mobile", tablet: "Tablet", desktop: "Desktop" }
// navigator.platform names the OS only for these; "Linux x86_64" is desktop Linux, Chrome OS or an emulator, and
// "Linux armv81" on a desktop entry is a phone in desktop mode: left unlabelled
const osOf = (platform: string, device: string): string | null => {
  if (platform === "Win32") return "Windows"
  if (platform === "MacIntel") return "macOS"
  if (/^(iPhone|iPad|iPod)/.test(platform)) return "iOS"
  if (/^Linux (arm|aarch64)/.test(platform) && device !== "Desktop") return "Android"
  return null
}

interface TrafficEntry {
  readonly userAgent: string
  readonly deviceCategory?: string
  readonly platform?: string
}

/** Each distinct labelled string of the data once (it repeats strings across screen sizes); all are browsers. */
export const trafficCorpus = (): Corpus => {
  const cases = new Map<string, Labelled>()
  UserAgent.random((entry: TrafficEntry) => {
    const deviceType = deviceOf[entry.deviceCategory ?? ""] ?? null
    const os = deviceType === null ? null : osOf(entry.platform ?? "", deviceType)
    cases.set(JSON.stringify([entry.userAgent, deviceType, os]), { ua: entry.userAgent, os, deviceType, bot: false })
    return true
  })
  return { name: "user-agents data (deviceCategory, platform)", cases: [...cases.values()] }
}

export const crawlerCorpus = (): Corpus => ({
  name: "crawler-user-agents instances",
  cases: [...new Set(crawlers.flatMap((c) => c.instances))].map((ua) => ({ ua, bot: true }))
})

/** uap-core (the shared copy beside the repository, else the one in test/fixtures), then every other fixture. */
export const defaultCorpora = (): Array<Corpus> => {
  const fixtures = here("../test/fixtures/")
  const uap = [here("../../shared/corpus/uap.jsonl"), `${fixtures}uap-core.jsonl`].find((path) => existsSync(path))!
  const files = readdirSync(fixtures)
    .filter((file) => file.endsWith(".jsonl") && file !== "uap-core.jsonl")
    .sort()
    .map((file) => `${fixtures}${file}`)
  return [...[uap, ...files].map(readJsonLines), trafficCorpus(), crawlerCorpus()]
}
