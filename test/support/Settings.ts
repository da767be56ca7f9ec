/** The server's settings from a map of variables, as `AppConfig.fromEnv` reads them; a refusal thrown for `expect`. */
import { Cause, Effect, Exit } from "effect"
import { AppConfig, type Env } from "../../src/Config.ts"

export const settingsOf = (env: Env): AppConfig["Service"] => {
  const exit = Effect.runSyncExit(Effect.provide(Effect.service(AppConfig), AppConfig.fromEnv(env)))
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}
