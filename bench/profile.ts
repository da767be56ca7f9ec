/**
 * `bun bench/profile.ts <file.cpuprofile> [count] [--us N]`: the top entries of a `bun --cpu-prof` profile by samples,
 * self and inclusive (a function counted once per sample however deep it recurses), with node_modules paths
 * shortened, then the samples by area (`bench/profileAreas.ts`: which framework step or project module they fell in);
 * with `--us N` (the CPU µs a request took) each area's share is also given in µs a request.
 * Sample counts, not the time deltas between samples: a sample taken after a garbage-collection pause carries the
 * pause's whole time, which makes time-weighted tables blame whatever JavaScript happened to be running.
 */
import { readFileSync } from "node:fs"
import { areaOf } from "./profileAreas.ts"

interface Node {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}

const argv = process.argv.slice(2)
const usIndex = argv.indexOf("--us")
const usPerRequest = usIndex === -1 ? undefined : Number(argv.splice(usIndex, 2)[1])
const [file, countArg] = argv
if (file === undefined) {
  process.stderr.write("usage: bun bench/profile.ts <file.cpuprofile> [count]\n")
  process.exit(2)
}
const count = Number(countArg ?? 25)
const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: ReadonlyArray<Node>; samples: ReadonlyArray<number> }

const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
const parents = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)

const name = (node: Node): string => {
  const { functionName, lineNumber, url } = node.callFrame
  const where = url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "")
  const root = process.cwd() + "/"
  return `${functionName || "(anonymous)"} ${where === "" ? "[native]" : `${where.replace(root, "")}:${lineNumber + 1}`}`
}

const self = new Map<string, number>()
const inclusive = new Map<string, number>()
const areas = new Map<string, number>()
for (const sample of profile.samples) {
  const node = nodes.get(sample)
  if (node === undefined) continue
  self.set(name(node), (self.get(name(node)) ?? 0) + 1)
  const stack: Array<string> = []
  for (let id: number | undefined = sample; id !== undefined; id = parents.get(id)) stack.push(name(nodes.get(id)!))
  const area = areaOf(stack)
  areas.set(area, (areas.get(area) ?? 0) + 1)
  const seen = new Set<string>()
  for (let id: number | undefined = sample; id !== undefined; id = parents.get(id)) {
    const key = name(nodes.get(id)!)
    if (seen.has(key)) continue
    seen.add(key)
    inclusive.set(key, (inclusive.get(key) ?? 0) + 1)
  }
}

const total = profile.samples.length
const table = (title: string, counts: Map<string, number>, filter: (key: string) => boolean = () => true) => {
  console.log(`\n${title} (${total} samples)`)
  for (const [key, n] of [...counts]
    .filter(([key]) => filter(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)) {
    console.log(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${key}`)
  }
}

table("self", self)
table("inclusive", inclusive)
table("inclusive, the project's own code", inclusive, (key) => / (src|bench)\//.test(key))
table("by area", areas)
if (usPerRequest !== undefined && Number.isFinite(usPerRequest)) {
  console.log(`\nby area, µs a request (of ${usPerRequest} µs)`)
  for (const [area, n] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${((usPerRequest * n) / total).toFixed(1).padStart(6)}  ${area}`)
  }
}
