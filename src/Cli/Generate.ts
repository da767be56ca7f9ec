// `tools-api generate`: with --seed item i is drawn from the seed and i, as a batch draws it: the same list every run.
import { Effect, Stdio, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { BROWSER_FAMILIES, DEVICE_FAMILIES, OS_FAMILIES } from "../Tools/UserAgent/Families.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"
import { integerFlag } from "./Integer.ts"
import { report, UserAgentsLive } from "./Report.ts"

/** Items made and written at a time, so a count in the millions needs no more memory than a thousand. */
const PAGE = 1_000

const only = <const L extends ReadonlyArray<string>>(name: string, families: L, what: string) =>
  Flag.Literals(name, families).pipe(Flag.withDescription(`Only this ${what}`), Flag.withDefault(undefined))

const flags = {
  count: integerFlag("count").pipe(Flag.withDescription("How many user agents (default 1)"), Flag.withDefault(1)),
  browser: only("browser", BROWSER_FAMILIES, "browser family"),
  os: only("os", OS_FAMILIES, "OS family"),
  deviceType: only("device-type", DEVICE_FAMILIES, "device type"),
  seed: integerFlag("seed").pipe(
    Flag.withDescription("The same seed and options give the same list (a negative one as --seed=-5)"),
    Flag.withDefault(undefined)
  )
}

const run = Effect.fn("Cli.generate")(
  function* (options: Command.Command.Config.Infer<typeof flags>) {
    const userAgents = yield* UserAgents
    const stdio = yield* Stdio.Stdio
    yield* Stream.range(0, Math.max(1, Math.ceil(options.count / PAGE)) - 1).pipe(
      Stream.mapEffect((page) =>
        userAgents.generateMany(options, Math.min(PAGE, options.count - page * PAGE), page * PAGE)
      ),
      Stream.map((items) => items.map((item) => `${JSON.stringify(item)}\n`).join("")),
      Stream.run(stdio.stdout())
    )
  },
  Effect.provide(UserAgentsLive),
  report
)

export const GenerateCommand = Command.make("generate", flags, run).pipe(
  Command.withShortDescription("Generate realistic, current user agents"),
  Command.withDescription(
    "Generate realistic, current user agents offline: one JSON line each, the API's data, each parsing back to " +
      "the families asked for."
  )
)
