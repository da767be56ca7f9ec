/**
 * What the corpus builders share (devCorpora.ts, heldOut.ts, heldOut2.ts, libraryOwn.ts): a labelled row, reading a
 * clone with git, the `--name DIR` command line, and writing `scripts/.corpora/<file>.jsonl` (git-ignored).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"

/** One labelled string; a null label is not measured (scripts/README.md). */
export interface Row {
  readonly ua: string
  readonly browser: string | null
  readonly os: string | null
  readonly deviceType: string | null
  readonly bot: boolean | null
  readonly source: string
}

export type Builder = (repo: string) => Array<Row>

export const git = (repo: string, ...args: Array<string>): string =>
  execFileSync("git", ["-C", repo, ...args], { maxBuffer: 1 << 28 }).toString()

/** The `--name DIR` pairs of the command line, each with its builder; any other argument prints `usage` and exits. */
export const sources = (
  builders: Readonly<Record<string, Builder>>,
  usage: string
): Array<{ readonly name: string; readonly repo: string; readonly build: Builder }> => {
  const args = process.argv.slice(2)
  const pairs = []
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]?.replace(/^--/, "") ?? ""
    const build = builders[name]
    const repo = args[i + 1]
    if (build === undefined || repo === undefined) {
      console.error(`usage: ${usage}`)
      process.exit(2)
    }
    pairs.push({ name, repo, build })
  }
  return pairs
}

/** Writes `rows` (one JSON object a line) to scripts/.corpora/<file>.jsonl and says how many, with `note`. */
export const writeCorpus = (file: string, rows: ReadonlyArray<Row>, note = ""): void => {
  const out = new URL("./.corpora/", import.meta.url).pathname
  mkdirSync(out, { recursive: true })
  const line = (r: Row) =>
    JSON.stringify({ ua: r.ua, browser: r.browser, os: r.os, deviceType: r.deviceType, bot: r.bot, source: r.source })
  writeFileSync(`${out}${file}.jsonl`, rows.map(line).join("\n") + "\n")
  console.log(`${out}${file}.jsonl: ${rows.length} strings${note}`)
}

/** The rows of every source, each string once (its first row). */
export const distinct = (rows: ReadonlyArray<Row>): Array<Row> => {
  const seen = new Set<string>()
  return rows.filter((r) => !seen.has(r.ua) && seen.add(r.ua))
}
