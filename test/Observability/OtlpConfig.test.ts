/**
 * The OTEL_* variables as the service reads them (`parse` of Config.ts): what turns export on and off, where each
 * signal goes, and errors that name the variable without quoting a secret.
 */
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { type Env, InvalidConfig } from "../../src/Config.ts"
import { settingsOf } from "../support/Settings.ts"

const otlp = (env: Env) => settingsOf(env).otlp
const BASE = "http://collector:4318"

describe("what turns export on", () => {
  test("unset: nothing; the endpoint alone: traces, metrics and logs, OTLP/HTTP JSON", () => {
    expect(otlp({})).toBeUndefined()
    const settings = otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE })
    expect(settings?.urls).toEqual({
      traces: `${BASE}/v1/traces`,
      metrics: `${BASE}/v1/metrics`,
      logs: `${BASE}/v1/logs`
    })
    expect(settings?.protocol).toBe("http/json")
    expect(settings?.serviceName).toBe("tools-api")
    expect(settings?.timeoutMs).toBe(10_000)
  })

  test("OTEL_*_EXPORTER: otlp (the default, also as Effect's own config spells it) or none, per signal", () => {
    const explicit = otlp({
      OTEL_EXPORTER_OTLP_ENDPOINT: BASE,
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_LOGS_EXPORTER: "none"
    })
    expect(Object.keys(explicit?.urls ?? {}).sort()).toEqual(["metrics", "traces"])
    const all = { OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none", OTEL_LOGS_EXPORTER: " None " }
    expect(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, ...all })).toBeUndefined()
    expect(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_SDK_DISABLED: "true" })).toBeUndefined()
  })

  test("a signal's own endpoint is used as it is, and alone turns that signal on", () => {
    const settings = otlp({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/in" })
    expect(settings?.urls).toEqual({ traces: "https://traces.example.com/in" })
  })

  test("property: the shared endpoint's path, with or without a trailing slash, is kept before /v1/<signal>", () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,8}$/)
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), fc.boolean(), (segments, slash) => {
        const path = segments.map((s) => `/${s}`).join("")
        const urls = otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: `${BASE}${path}${slash ? "/" : ""}` })?.urls
        expect(urls?.metrics).toBe(`${BASE}${path}/v1/metrics`)
      })
    )
  })
})

describe("the rest of the standard variables", () => {
  test("OTEL_TRACES_SAMPLER and its ratio, parent-based by default", () => {
    const sampler = (env: Env) => otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, ...env })?.sampler
    expect(sampler({})).toEqual({ ratio: 1, parentBased: true })
    expect(sampler({ OTEL_TRACES_SAMPLER: "always_off" })).toEqual({ ratio: 0, parentBased: false })
    expect(sampler({ OTEL_TRACES_SAMPLER: "parentbased_always_off" })).toEqual({ ratio: 0, parentBased: true })
    const ratio = { OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" }
    expect(sampler(ratio)).toEqual({ ratio: 0.25, parentBased: true })
    expect(sampler({ OTEL_TRACES_SAMPLER: "traceidratio" })).toEqual({ ratio: 1, parentBased: false })
    for (const bad of ["1.5", "-0.1", "half", "1e-3"]) {
      expect(() => sampler({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: bad })).toThrow(
        "OTEL_TRACES_SAMPLER_ARG"
      )
    }
    expect(() => sampler({ OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow("OTEL_TRACES_SAMPLER")
  })

  test("headers and resource attributes: key=value pairs, values percent-decoded; the service name", () => {
    const settings = otlp({
      OTEL_EXPORTER_OTLP_ENDPOINT: BASE,
      OTEL_EXPORTER_OTLP_HEADERS: "api-key=a%20b, x-tenant=t1",
      OTEL_RESOURCE_ATTRIBUTES: "service.name=from-attributes,deployment.environment=prod",
      OTEL_EXPORTER_OTLP_PROTOCOL: "HTTP/protobuf",
      OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
      OTEL_EXPORTER_OTLP_TIMEOUT: "2500"
    })
    expect(settings?.headers).toEqual({ "api-key": "a b", "x-tenant": "t1" })
    expect(settings?.serviceName).toBe("from-attributes")
    expect(settings?.attributes).toEqual({ "deployment.environment": "prod" })
    expect(settings?.protocol).toBe("http/protobuf")
    expect(settings?.compression).toBe("gzip")
    expect(settings?.timeoutMs).toBe(2_500)
    const named = otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_SERVICE_NAME: "mine", OTEL_RESOURCE_ATTRIBUTES: "" })
    expect(named?.serviceName).toBe("mine")
  })

  test("a key named __proto__ is an ordinary key: kept as sent, no object's prototype changed", () => {
    const settings = otlp({
      OTEL_EXPORTER_OTLP_ENDPOINT: BASE,
      OTEL_EXPORTER_OTLP_HEADERS: "__proto__=x,a=b",
      OTEL_RESOURCE_ATTRIBUTES: "__proto__=y"
    })
    expect(Object.getOwnPropertyNames(settings?.headers)).toEqual(["__proto__", "a"])
    expect(Object.getOwnPropertyDescriptor(settings?.headers, "__proto__")?.value).toBe("x")
    expect(Object.getOwnPropertyDescriptor(settings?.attributes, "__proto__")?.value).toBe("y")
    expect(Object.getPrototypeOf(settings?.headers)).toBe(Object.prototype)
  })

  test("a bad value is InvalidConfig naming the variable; a header's value (a secret) is never quoted", () => {
    const secret = "sk-live-0123456789"
    const failure = (env: Env) => {
      try {
        settingsOf(env)
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidConfig)
        return (error as InvalidConfig).message
      }
      throw new Error("expected InvalidConfig")
    }
    const headers = failure({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_EXPORTER_OTLP_HEADERS: `token:${secret}` })
    expect(headers).toContain("OTEL_EXPORTER_OTLP_HEADERS")
    expect(headers).not.toContain(secret)
    const badEscape = failure({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_EXPORTER_OTLP_HEADERS: `token=${secret}%zz` })
    expect(badEscape).not.toContain(secret)
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://collector" })).toContain("OTEL_EXPORTER_OTLP_ENDPOINT")
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_METRICS_EXPORTER: "prometheus" })).toContain(
      "OTEL_METRICS_EXPORTER"
    )
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toContain("grpc")
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_BSP_SCHEDULE_DELAY: "0" })).toContain(
      "OTEL_BSP_SCHEDULE_DELAY"
    )
  })
})

describe("OTEL_EXPORTER_OTLP_PROTOCOL=grpc", () => {
  test("stops the start, and the message names the default the service really uses", () => {
    const used = otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE })?.protocol
    let message = ""
    try {
      settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: BASE, OTEL_EXPORTER_OTLP_PROTOCOL: "gRPC" })
    } catch (error) {
      message = (error as InvalidConfig).message
    }
    expect(message).toContain(`use ${used} (the default)`)
  })
})
