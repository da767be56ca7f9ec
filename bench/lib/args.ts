/**
 * Command-line plumbing shared by the bench scripts: flag parsing (`--flag value` or `--flag=value`), number checks,
 * `--env NAME=VALUE`, and the one-line report of an expected failure.
 */

/** A failure the user can act on (bad option, server that did not start, wrk missing): printed as one line. */
export class Failure extends Error {}

export const fail = (message: string): never => {
  throw new Failure(message)
}

/**
 * Runs a script's body; a Failure is printed as `bench: message` with exit code 2. Thrown rather than exiting on the
 * spot so that the `finally` blocks on the way stop the servers and remove the temporary files.
 */
export const main = (body: () => Promise<void>): Promise<void> =>
  body().catch((error: unknown) => {
    if (!(error instanceof Failure)) throw error
    process.stderr.write(`bench: ${error.message}\n`)
    process.exit(2)
  })

export const positive = (name: string, value: string | undefined): number => {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? n : fail(`${name} needs a positive number, got ${JSON.stringify(value)}`)
}

/** A count given on the command line: a positive number, fractions rounded down. */
export const count = (name: string, value: string | undefined): number => Math.floor(positive(name, value))

/** `NAME=VALUE` as a pair; the value may itself hold `=`. */
export const envPair = (text: string): readonly [string, string] => {
  const [name, value] = text.split(/=(.*)/s, 2)
  return name === undefined || name === "" || value === undefined ? fail("--env takes NAME=VALUE") : [name, value]
}

/** What a flag's handler is given: its value, read on demand because switches such as `--no-floor` take none. */
export type Handler = (value: () => string, flag: string) => void

/**
 * Walks argv, calling the handler of each flag; `--help` and `-h` print the usage and exit 0. Arguments that are not
 * flags go to `positional` when given, and are otherwise unknown options like any unlisted flag.
 */
export const parseFlags = (
  argv: ReadonlyArray<string>,
  usage: string,
  handlers: Record<string, Handler>,
  positional?: (argument: string) => void
): void => {
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i]!
    if (positional !== undefined && !argument.startsWith("-")) {
      positional(argument)
      continue
    }
    const [flag, inline] = argument.split(/=(.*)/s, 2) as [string, string | undefined]
    if (flag === "--help" || flag === "-h") {
      process.stdout.write(usage)
      process.exit(0)
    }
    // own properties only, so that an argument such as `constructor` is not taken for a handler
    if (!Object.hasOwn(handlers, flag)) fail(`unknown option ${flag}\n${usage}`)
    handlers[flag]!(() => inline ?? argv[++i] ?? fail(`${flag} needs a value`), flag)
  }
}
