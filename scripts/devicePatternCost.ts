/**
 * The generation-time check that no device pattern is super-linear within what the service lets it read: scripts/
 * deviceData.ts runs `checkPatternCosts` on every pattern it writes (the brands' alternatives, their whole patterns
 * where a template reads them, the models, the parsers' gates), compiled as the service compiles them
 * (`devicePattern`), on strings of `WINDOW` characters built from each pattern's own literal texts: the literal
 * repeated with a separator (`BOWAY BOWAY ...`), and the literal followed by a long run without `/`, `;` or `Build`
 * (`Senwa 1111...`), the forms on which Matomo's patterns backtrack. A pattern whose worst string costs more than
 * `BOUND_MS` fails the generation. Each string is timed once, in CPU time, and again (the least of three) when it
 * costs more than a tenth of the bound.
 */
import { devicePattern, WINDOW } from "../src/Tools/UserAgent/device/Patterns.ts"

/** The most one pattern may cost on one string of `WINDOW` characters. */
export const BOUND_MS = 2

export interface PatternCost {
  /** where the pattern comes from: a brand, "model of" a brand, a gate */
  readonly label: string
  readonly source: string
  /** its costliest string */
  readonly attack: string
  readonly ms: number
}

/** A pattern's literal texts of two characters or more, outside classes, groups' syntax and quantified characters. */
export const literalsOf = (source: string): Array<string> => {
  const out: Array<string> = []
  let run = ""
  const flush = (): void => {
    if (run.trim().length >= 2) out.push(run.trim())
    run = ""
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === "\\") {
      const e = source[++i] ?? ""
      if (/[a-zA-Z0-9]/.test(e)) flush()
      else run += e
    } else if (c === "(" && source[i + 1] === "?") {
      flush()
      i += source[i + 2] === "<" ? 3 : 2
    } else if (c === "[") {
      flush()
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1
    } else if ("?*+{".includes(c)) {
      run = run.slice(0, -1)
      flush()
      if (c === "{") i = source.indexOf("}", i)
    } else if ("()|.^$".includes(c)) flush()
    else run += c
  }
  flush()
  return [...new Set(out)]
}

const filled = (unit: string, length: number): string => unit.repeat(Math.ceil(length / unit.length)).slice(0, length)

/** The strings of `length` characters a pattern is timed on, built from its first four literal texts. */
export const attacksOn = (source: string, length: number): Array<string> => {
  const texts = literalsOf(source).slice(0, 4)
  const out = new Set<string>()
  for (const text of texts)
    for (const separator of [" ", "_", "-", ""]) {
      out.add(filled(text + separator, length))
      for (const run of ["a", " ", "1"]) out.add((text + separator + filled(run, length)).slice(0, length))
    }
  // the texts in the pattern's order, the first k of them, repeated (`(?:DATANG[ _-])+([^;/]+)Build`)
  for (const separator of [" ", ""])
    for (let k = 2; k <= texts.length; k++) out.add(filled(texts.slice(0, k).join(separator) + separator, length))
  return [...out]
}

/** The CPU time of a call, in milliseconds: unlike the wall clock, it does not count the time other processes of a
 * shared machine take. */
export const cpuMs = (run: () => unknown): number => {
  const before = process.cpuUsage()
  run()
  const { user, system } = process.cpuUsage(before)
  return (user + system) / 1000
}

const timed = (pattern: RegExp, text: string): number => cpuMs(() => pattern.exec(text))

/** Each pattern's costliest string of `length` characters, the costliest pattern first. */
export const patternCosts = (
  patterns: ReadonlyArray<{ readonly label: string; readonly source: string }>,
  length: number
): Array<PatternCost> =>
  patterns
    .map(({ label, source }) => {
      const pattern = devicePattern(source)
      pattern.exec("") // compiled before it is timed
      let worst: PatternCost = { label, source, attack: "", ms: 0 }
      for (const attack of attacksOn(source, length)) {
        let ms = timed(pattern, attack)
        for (let again = 0; again < 2 && ms > BOUND_MS / 10; again++) ms = Math.min(ms, timed(pattern, attack))
        if (ms > worst.ms) worst = { label, source, attack, ms }
      }
      return worst
    })
    .sort((a, b) => b.ms - a.ms)

/** The worst few patterns as lines to print. */
export const costLines = (costs: ReadonlyArray<PatternCost>, count: number): Array<string> =>
  costs
    .slice(0, count)
    .map(
      ({ label, source, attack, ms }) =>
        `  ${ms.toFixed(2)} ms  ${label}: ${JSON.stringify(source).slice(0, 70)} on ${JSON.stringify(attack.slice(0, 30))}...`
    )

/** Times every pattern on `WINDOW` characters; throws, naming them, if any costs more than `BOUND_MS`. */
export const checkPatternCosts = (
  patterns: ReadonlyArray<{ readonly label: string; readonly source: string }>
): Array<PatternCost> => {
  const costs = patternCosts(patterns, WINDOW)
  const over = costs.filter((cost) => cost.ms > BOUND_MS)
  if (over.length > 0)
    throw new Error(
      `${over.length} device patterns cost more than ${BOUND_MS} ms on ${WINDOW} characters:\n${costLines(over, 20).join("\n")}`
    )
  return costs
}
