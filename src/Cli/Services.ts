/**
 * The tools' services for the offline commands: the very layers the server uses, with the one setting that
 * matters offline (UA_CACHE_SIZE) and none of the server's (a PORT or a key file has no say in a parse).
 */
import { Config, Effect, Layer, Option } from "effect"
import { AppConfig, type InvalidConfig, parse } from "../Config.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"

const OfflineConfig = Layer.effect(
  AppConfig,
  Effect.gen(function* () {
    const size = yield* Effect.orDie(Config.option(Config.String("UA_CACHE_SIZE")))
    return yield* Effect.try({
      try: () => parse(Option.match(size, { onNone: () => ({}), onSome: (UA_CACHE_SIZE) => ({ UA_CACHE_SIZE }) })),
      catch: (error) => error as InvalidConfig
    })
  })
)

export const UserAgentsLive = UserAgents.layer.pipe(Layer.provide(OfflineConfig))
