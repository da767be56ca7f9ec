/**
 * `tools-api generate`: `--count` user agents (1 unless given), one JSON line each, the API's `data`; the filters
 * apply to each. With `--seed` the whole list is the same every run (item i drawn from the seed and i, as a batch draws it), and its
 * first item is the string the API gives for that seed.
 */
import { Effect, Option, Stdio, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { BROWSER_FAMILIES, DEVICE_FAMILIES, OS_FAMILIES } from "../Tools/UserAgent/Families.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"
import { report } from "./Report.ts"
import { UserAgentsLive } from "./Services.ts"

/** Items made and written at a time, so a count in the millions needs no more memory than a thousand. */
const PAGE = 1_000

const run = Effect.fn("Cli.generate")(
  function* (flags: {
    readonly count: number
    readonly browser: Option.Option<(typeof BROWSER_FAMILIES)[number]>
    readonly os: Option.Option<(typeof OS_FAMILIES)[number]>
    readonly deviceType: Option.Option<(typeof DEVICE_FAMILIES)[number]>
    readonly seed: Option.Option<number>
  }) {
    const userAgents = yield* UserAgents
    const stdio = yield* Stdio.Stdio
    const options = {
      browser: Option.getOrUndefined(flags.browser),
      os: Option.getOrUndefined(flags.os),
      deviceType: Option.getOrUndefined(flags.deviceType),
      seed: Option.getOrUndefined(flags.seed)
    }
    const page = (from: number) =>
      Effect.map(userAgents.generateMany(options, Math.min(PAGE, flags.count - from), from), (items) =>
        items.map((item) => `${JSON.stringify(item)}\n`).join("")
      )
    const pages = Math.max(1, Math.ceil(flags.count / PAGE))
    yield* Stream.range(0, pages - 1).pipe(
      Stream.mapEffect((index) => page(index * PAGE)),
      Stream.run(stdio.stdout())
    )
  },
  Effect.provide(UserAgentsLive),
  report
)

export const GenerateCommand = Command.make(
  "generate",
  {
    count: Flag.Int("count").pipe(Flag.withDescription("How many user agents (default 1)"), Flag.withDefault(1)),
    browser: Flag.Literals("browser", BROWSER_FAMILIES).pipe(
      Flag.withDescription("Only this browser family"),
      Flag.optional
    ),
    os: Flag.Literals("os", OS_FAMILIES).pipe(Flag.withDescription("Only this OS family"), Flag.optional),
    deviceType: Flag.Literals("device-type", DEVICE_FAMILIES).pipe(
      Flag.withDescription("Only this device type"),
      Flag.optional
    ),
    seed: Flag.Int("seed").pipe(
      Flag.withDescription("The same seed and options give the same list (a negative one as --seed=-5)"),
      Flag.optional
    )
  },
  run
).pipe(
  Command.withShortDescription("Generate realistic, current user agents"),
  Command.withDescription(
    "Generate realistic, current user agents offline: one JSON line each, the API's data, each parsing back to " +
      "the families asked for."
  )
)
