/**
 * What a start costs, two compiled binaries side by side (this tree's and a baseline's, e.g. a382acc's), round by
 * round in turn so the machine's noise hits both alike: the first `/health` answered after the spawn, idle RSS 2 s
 * after that, a one-line `parse` and `generate --count 1` as commands (stdout discarded), each in wall time and in
 * the CPU time the process spent (the steadier figure on a shared machine). Each figure is the least of its rounds,
 * and the ratio to the baseline's; then the median of each round's own ratio (its two figures taken one after the
 * other, the two taking turns to go first), with the 95 % interval of that median (the sign rule's,
 * bench/lib/stats.ts): an interval that holds x1 cannot tell the two apart. Both run from copies made afresh in a
 * temporary folder: how much of a binary a start maps, so its RSS, depends on how the page cache holds the file (one
 * just written maps ~4 MB more than the same bytes written hours ago), so each is held alike.
 *
 *   bun bench/startup.ts --binary dist/tools-api --baseline OTHER/dist/tools-api [--runs 5]
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { count, fail, main, parseFlags } from "./lib/args.ts"
import { cpuMillis, rss } from "./lib/proc.ts"
import { median, medianInterval } from "./lib/stats.ts"

const usage = "bun bench/startup.ts --binary PATH --baseline PATH [--runs N]\n"
const options = { binary: "dist/tools-api", baseline: undefined as string | undefined, runs: 5 }
parseFlags(process.argv.slice(2), usage, {
  "--binary": (value) => (options.binary = value()),
  "--baseline": (value) => (options.baseline = value()),
  "--runs": (value, flag) => (options.runs = count(flag, value()))
})

const LINE =
  "Mozilla/5.0 (Linux; Android 14; SM-A536B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/132.0.6834.163 Mobile Safari/537.36\n"
const env = { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", API_KEYS: "startup-bench-key-0123456789" }

/** The first /health answered, in ms from the spawn (and the CPU the process spent by then), and RSS 2 s later; the
 * server is stopped in any case. */
const serve = async (binary: string): Promise<{ health: number; healthCpu: number; rss: number }> => {
  const began = performance.now()
  const proc = Bun.spawn([binary], { env, stdout: "pipe", stderr: "ignore" })
  try {
    const reader = proc.stdout.getReader()
    let text = ""
    let port: string | undefined
    while (port === undefined) {
      const { value, done } = await reader.read()
      if (done) return fail(`${binary} ended before it listened`)
      text += new TextDecoder().decode(value)
      port = /Listening on http:\/\/[^:]+:(\d+)/.exec(text)?.[1]
    }
    reader.releaseLock()
    void proc.stdout.pipeTo(new WritableStream())
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false
      )
      if (ok) break
    }
    const [health, healthCpu] = [performance.now() - began, cpuMillis(proc.pid)]
    await Bun.sleep(2000)
    return { health, healthCpu, rss: rss(proc.pid) }
  } finally {
    proc.kill()
    await proc.exited
  }
}

/** A command's wall time and CPU time in ms, its input given and its output discarded. */
const command = async (binary: string, args: ReadonlyArray<string>, input?: string) => {
  const began = performance.now()
  const proc = Bun.spawn([binary, ...args], {
    env,
    stdin: input === undefined ? "ignore" : new Blob([input]),
    stdout: "ignore",
    stderr: "ignore"
  })
  if ((await proc.exited) !== 0) fail(`${binary} ${args.join(" ")} failed`)
  return [performance.now() - began, Number(proc.resourceUsage()?.cpuTime.total ?? Number.NaN) / 1000] as const
}

type Figures = Record<"health" | "healthCpu" | "rss" | "parse" | "parseCpu" | "generate" | "generateCpu", number>

const round = async (binary: string): Promise<Figures> => {
  const served = await serve(binary)
  const [parse, parseCpu] = await command(binary, ["parse"], LINE)
  const [generate, generateCpu] = await command(binary, ["generate", "--count", "1"])
  return { ...served, parse, parseCpu, generate, generateCpu }
}

await main(async () => {
  const baseline = options.baseline ?? fail(usage)
  const runs: Record<"tree" | "baseline", Array<Figures>> = { tree: [], baseline: [] }
  const copies = mkdtempSync(join(tmpdir(), "startup-bench-"))
  try {
    const [treeCopy, baselineCopy] = [join(copies, "tree-tools-api"), join(copies, "baseline-tools-api")]
    copyFileSync(options.binary, treeCopy)
    copyFileSync(baseline, baselineCopy)
    for (let r = 0; r < options.runs; r++) {
      // each goes first in every other round, so neither always follows the other's command
      if (r % 2 === 0) runs.baseline.push(await round(baselineCopy))
      runs.tree.push(await round(treeCopy))
      if (r % 2 === 1) runs.baseline.push(await round(baselineCopy))
    }
  } finally {
    rmSync(copies, { recursive: true, force: true })
  }
  const least = (of: Array<Figures>, key: keyof Figures) => Math.min(...of.map((figures) => figures[key]))
  // a round's two figures are taken one after the other, so a slow spell of the machine falls on both
  const ratios = (key: keyof Figures) => runs.tree.map((figures, r) => figures[key] / runs.baseline[r]![key])
  const interval = (key: keyof Figures) => {
    const bounds = medianInterval(ratios(key))
    return bounds === undefined ? "" : ` (95 % x${bounds[0].toFixed(3)}-x${bounds[1].toFixed(3)})`
  }
  console.log(
    `${options.runs} rounds, least of each; then the median of the rounds' own ratios, with its 95 % interval`
  )
  console.log(`${options.binary} against ${baseline}`)
  const labels: Record<keyof Figures, string> = {
    health: "first /health",
    healthCpu: "  CPU by then",
    rss: "idle RSS 2 s after",
    parse: "parse, one line",
    parseCpu: "  its CPU",
    generate: "generate --count 1",
    generateCpu: "  its CPU"
  }
  for (const key of Object.keys(labels) as Array<keyof Figures>) {
    const [unit, scale] = key === "rss" ? ["MB", 1 / 2 ** 20] : ["ms", 1]
    const [tree, base] = [least(runs.tree, key) * scale, least(runs.baseline, key) * scale]
    const figures = `${tree.toFixed(1).padStart(7)} ${unit}  baseline ${base.toFixed(1).padStart(7)} ${unit}`
    const paired = `round by round x${median(ratios(key)).toFixed(3)}${interval(key)}`
    console.log(`  ${labels[key].padEnd(20)} ${figures}  x${(tree / base).toFixed(3)}  ${paired}`)
  }
})
