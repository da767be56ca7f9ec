/**
 * The server's own layers for the offline commands, with the one setting that matters offline (UA_CACHE_SIZE) and
 * none of the server's (a PORT or a key file has no say in a parse).
 */
import { Config, Effect, Layer, Option } from "effect"
import { AppConfig, type InvalidConfig, parse } from "../Config.ts"
import { UserAgents } from "../Tools/UserAgent/Service.ts"

const OfflineConfig = Layer.effect(
  AppConfig,
  Effect.flatMap(Effect.orDie(Config.option(Config.String("UA_CACHE_SIZE"))), (size) =>
    Effect.try({
      try: () => parse(Option.isSome(size) ? { UA_CACHE_SIZE: size.value } : {}),
      catch: (error) => error as InvalidConfig
    })
  )
)

export const UserAgentsLive = UserAgents.layer.pipe(Layer.provide(OfflineConfig))
