/**
 * The rules every variable is read by (EnvVar.ts, on Effect's `Config`), through `AppConfig.fromEnv` as the service applies
 * them: Effect's refusals become our one line (never its own message), values are trimmed, words are read in any
 * case, a blank value means the default, and keys are held redacted.
 */
import { describe, expect, test } from "bun:test"
import { Cause, Effect, Exit, Redacted } from "effect"
import { AppConfig, type Env, InvalidConfig } from "../src/Config.ts"
import { settingsOf } from "./support/Settings.ts"

const failure = (env: Env): string => {
  try {
    settingsOf(env)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfig)
    return (error as InvalidConfig).message
  }
  throw new Error("expected InvalidConfig")
}

describe("a refused value is one line naming the variable, whichever rule refused it", () => {
  test("integers: not a number, a fraction, out of range, exponent or hex notation (which Number would take)", () => {
    expect(failure({ PORT: "abc" })).toBe('PORT must be an integer from 0 to 65535, got "abc"')
    expect(failure({ PORT: "70000" })).toBe('PORT must be an integer from 0 to 65535, got "70000"')
    expect(failure({ IDLE_TIMEOUT_SECONDS: "1.5" })).toBe(
      'IDLE_TIMEOUT_SECONDS must be an integer from 1 to 255, got "1.5"'
    )
    const rate = "RATE_LIMIT_PER_MINUTE must be an integer from 1 to 1000000000"
    expect(failure({ RATE_LIMIT_PER_MINUTE: "1e3" })).toBe(`${rate}, got "1e3"`)
    expect(failure({ RATE_LIMIT_PER_MINUTE: "0x10" })).toBe(`${rate}, got "0x10"`)
  })

  test("true or false, one of a list, a URL", () => {
    expect(failure({ METRICS: "maybe" })).toBe('METRICS must be true or false, got "maybe"')
    expect(failure({ LOG_LEVEL: "loud" })).toBe(
      'LOG_LEVEL must be one of debug, info, warning, error, none, got "loud"'
    )
    expect(failure({ PUBLIC_URL: "ftp://api.example.com" })).toBe(
      'PUBLIC_URL must be an http:// or https:// URL like https://api.example.com, got "ftp://api.example.com"'
    )
    expect(failure({ PUBLIC_URL: "not a url" })).toStartWith("PUBLIC_URL must be an http:// or https:// URL")
  })

  test("an OTLP endpoint is named but not quoted: it may carry a password", () => {
    const message = failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://user:hunter2@collector" })
    expect(message).toBe("OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL like http://collector:4318")
  })
})

describe("how values are read", () => {
  test("trimmed, words in any case; a blank value means the default", () => {
    const settings = settingsOf({
      PORT: " 8080 ",
      METRICS: " OFF ",
      TRUST_PROXY: "Yes",
      LOG_LEVEL: "DEBUG",
      HOST: "   "
    })
    expect(settings.port).toBe(8080)
    expect(settings.metrics).toBe(false)
    expect(settings.trustProxy).toBe(true)
    expect(settings.logLevel).toBe("debug")
    expect(settings.host).toBe("0.0.0.0")
  })

  test("keys are held redacted: the settings print none of them, Redacted.value gives them back", () => {
    const key = "tk_live_0123456789abcdef"
    const settings = settingsOf({ API_KEYS: key, TOOLS_API_GENERATED_KEY: `${key}-generated` })
    for (const shown of [String(settings.apiKeys), JSON.stringify(settings), Bun.inspect(settings)]) {
      expect(shown).not.toContain(key)
    }
    expect(settings.apiKeys && Redacted.value(settings.apiKeys)).toBe(key)
    expect(settings.generatedKey && Redacted.value(settings.generatedKey)).toBe(`${key}-generated`)
  })
})

test("a refused value fails the settings' layer with InvalidConfig: a typed failure, never a defect", () => {
  const exit = Effect.runSyncExit(Effect.provide(Effect.service(AppConfig), AppConfig.fromEnv({ PORT: "abc" })))
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  expect(Cause.hasDies(exit.cause)).toBe(false)
  expect(Cause.squash(exit.cause)).toEqual(
    new InvalidConfig({ message: 'PORT must be an integer from 0 to 65535, got "abc"' })
  )
})
