/**
 * A realistic access log for `bench/cli.ts` and the report's screenshot, made from public corpora at run time (never
 * committed): the strings of `user-agents` (real traffic), `crawler-user-agents` (bots, monitors, scanners) and the
 * uap-core suite (test/fixtures), about 4,700 distinct, and variants of them with a version number redrawn, as a real
 * log's long tail is (builds, app versions): `--agents` distinct in all (56,000 by default). Lines draw an agent by a
 * Zipf law (weight 1/rank), so a few are most of the traffic and most are rare; times run over `--days` days, paths
 * and statuses are drawn per line, bots go more to robots.txt and odd paths. Seeded: the same flags, the same log.
 * `--repeating N`: N agents only (2,000 for the repeating log), every one frequent.
 *
 *   bun bench/realisticLog.ts [--lines N] [--agents N] [--days N] [--repeating N] FILE
 */
import crawlers from "crawler-user-agents"
import { createWriteStream, readFileSync } from "node:fs"
import { count, fail, main, parseFlags } from "./lib/args.ts"

/** xorshift32: a fixed sequence for a seed. */
const random = (seed: number) => {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 4_294_967_296
  }
}

const corpora = (): Array<string> => {
  const traffic: Array<{ userAgent: string }> = JSON.parse(
    readFileSync(new URL("../node_modules/user-agents/dist/user-agents.json", import.meta.url), "utf8")
  )
  const fixture = readFileSync(new URL("../test/fixtures/uap-core.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { ua: string }).ua)
  const bots = (crawlers as Array<{ instances?: Array<string> }>).flatMap((crawler) => crawler.instances ?? [])
  return [...new Set([...traffic.map((entry) => entry.userAgent), ...fixture, ...bots])].filter(
    (ua) => ua.length < 1_000 && !/["\\\n]/.test(ua)
  )
}

/** `distinct` agents: the corpora's, then variants with one version number's last part redrawn. */
export const agents = (distinct: number, next: () => number): Array<string> => {
  const base = corpora()
  const all = new Set(base.slice(0, distinct))
  for (let tries = 0; all.size < distinct && tries < distinct * 20; tries++) {
    const ua = base[Math.floor(next() * base.length)]!
    const numbers = [...ua.matchAll(/\d+\.\d+(?:\.\d+)*/g)]
    if (numbers.length === 0) continue
    const pick = numbers[Math.floor(next() * numbers.length)]!
    const parts = pick[0].split(".")
    parts[parts.length - 1] = String(Math.floor(next() * 10_000))
    all.add(`${ua.slice(0, pick.index)}${parts.join(".")}${ua.slice(pick.index! + pick[0].length)}`)
  }
  // ranks shuffled so the popular ones are not all from one corpus
  const list = [...all]
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[list[i], list[j]] = [list[j]!, list[i]!]
  }
  return list
}

const HUMAN_PATHS = ["/", "/products", "/products/42", "/cart", "/search", "/login", "/static/app.js", "/favicon.ico"]
const BOT_PATHS = ["/robots.txt", "/", "/sitemap.xml", "/healthz", "/.env", "/wp-login.php", "/products/42"]
const STATUSES = [200, 200, 200, 200, 200, 200, 304, 301, 404, 500]
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

const timeOf = (ms: number) => {
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`
}

export const writeRealisticLog = async (
  path: string,
  options: { lines: number; agents: number; days: number; seed?: number }
) => {
  const next = random(options.seed ?? 47)
  const list = agents(options.agents, next)
  // cumulative Zipf weights, searched by bisection
  const cumulative = new Float64Array(list.length)
  let sum = 0
  for (let rank = 0; rank < list.length; rank++) cumulative[rank] = sum += 1 / (rank + 1)
  const draw = () => {
    const target = next() * sum
    let [low, high] = [0, list.length - 1]
    while (low < high) {
      const mid = (low + high) >> 1
      if (cumulative[mid]! < target) low = mid + 1
      else high = mid
    }
    return list[low]!
  }
  const start = Date.UTC(2026, 10, 20)
  const span = options.days * 86_400_000
  const out = createWriteStream(path)
  for (let i = 0; i < options.lines; i++) {
    const ua = i % 97 === 96 ? "-" : draw()
    const bot = /bot|crawl|spider|probe|check|monitor|scan|curl|wget|python|go-http/i.test(ua)
    const paths = bot ? BOT_PATHS : HUMAN_PATHS
    const path = `${paths[Math.floor(next() * paths.length)]}${next() < 0.2 ? `?q=${Math.floor(next() * 1000)}` : ""}`
    const status = STATUSES[Math.floor(next() * STATUSES.length)]
    const time = timeOf(start + Math.floor((i / options.lines) * span))
    const line = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255} - - [${time}] "GET ${path} HTTP/1.1" ${status} ${512 + (i % 4096)} "-" "${ua}"\n`
    if (!out.write(line)) await new Promise((resolve) => out.once("drain", resolve))
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
}

if (import.meta.main) {
  const usage = "bun bench/realisticLog.ts [--lines N] [--agents N] [--days N] FILE\n"
  const options = { lines: 1_000_000, agents: 56_000, days: 2, path: undefined as string | undefined }
  parseFlags(
    process.argv.slice(2),
    usage,
    {
      "--lines": (value, flag) => (options.lines = count(flag, value())),
      "--agents": (value, flag) => (options.agents = count(flag, value())),
      "--days": (value, flag) => (options.days = count(flag, value()))
    },
    (path) => (options.path = path)
  )
  await main(() => writeRealisticLog(options.path ?? fail(`name the file to write\n${usage}`), options))
}
