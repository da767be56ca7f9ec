/**
 * The typed client TypeScript users get from `src/Api.ts` (Effect's HttpApiClient): both endpoints called against a
 * real server, and every error class of the API decoded from the one envelope.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { BigDecimal, Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { ToolsApi } from "../../src/Api.ts"
import { type Running, start } from "../support/Process.ts"

const KEY = "client-test-key-0123456789"
/** Limits are per key: one key for the errors, one to run out of tokens. */
const ERRORS_KEY = "client-test-key-errors-0123"
const LIMITED_KEY = "client-test-key-limited-0123"
let server: Running
beforeAll(async () => {
  server = await start({
    API_KEYS: [KEY, ERRORS_KEY, LIMITED_KEY].join(","),
    RATE_LIMIT_PER_MINUTE: "5",
    MAX_BODY_BYTES: "512"
  })
})
afterAll(() => server.stop())

/** The client with a key, as docs/API.md shows it. */
const withClient = <A, E>(key: string, use: (client: HttpApiClient.ForApi<typeof ToolsApi>) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    HttpApiClient.make(ToolsApi, {
      baseUrl: server.base,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(key))
    }).pipe(Effect.flatMap(use), Effect.provide(FetchHttpClient.layer))
  )

const failureTag = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(effect), (error) => (error as { readonly _tag: string })._tag)

describe("HttpApiClient against a real server", () => {
  test("calls both endpoints and gets typed answers", async () => {
    const [parsed, generated, wage, exact] = await withClient(KEY, (client) =>
      Effect.all([
        client.userAgentParser({
          payload: {
            operation: "parse",
            userAgent:
              "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
          }
        }),
        client.userAgentParser({ payload: { operation: "generate", browser: "Firefox", seed: 1 } }),
        client.wageEstimator({ payload: { annualSalary: BigDecimal.fromNumberUnsafe(50000) } }),
        // sent as the decimal it is: 1.00499999999999999999 rounds to 1.00, where the float 1.005 would give 1.01
        client.wageEstimator({ payload: { hourlyWage: BigDecimal.fromStringUnsafe("1.00499999999999999999") } })
      ])
    )
    // one result for one string; the type is the union of both forms (the client's type cannot follow the payload)
    expect("browser" in parsed.data && parsed.data.browser.name).toBe("Chrome")
    // the device's marketing name is decoded too (none for a desktop's browser)
    expect("device" in parsed.data && parsed.data.device.name).toBe("Unknown")
    expect("browser" in generated.data && generated.data.browser.name).toBe("Firefox")
    expect(wage.estimates.monthly).toBe(4166.67)
    expect(exact.estimates.hourly).toBe(1)
  })

  test("decodes the errors a server answers (401, 413, 429 with its retry time); refuses a bad payload itself", async () => {
    const tags = await withClient("not-the-key", (client) =>
      failureTag(client.wageEstimator({ payload: { hourlyWage: BigDecimal.fromNumberUnsafe(1) } }))
    )
    expect(tags).toBe("Unauthorized")
    const errors = await withClient(ERRORS_KEY, (client) =>
      Effect.all([
        // @ts-expect-error neither field: the payload type is one form or the other (tsc -p . checks this line)
        failureTag(client.wageEstimator({ payload: {} })),
        failureTag(
          client.wageEstimator({
            // @ts-expect-error both fields
            payload: { hourlyWage: BigDecimal.fromNumberUnsafe(1), annualSalary: BigDecimal.fromNumberUnsafe(2080) }
          })
        ),
        failureTag(client.wageEstimator({ payload: { hourlyWage: BigDecimal.fromNumberUnsafe(-1) } })),
        failureTag(client.userAgentParser({ payload: { operation: "parse", userAgent: "a".repeat(600) } }))
      ])
    )
    // the client checks a payload against the schema before sending: neither form of the wage, both, or a value out
    // of bounds, never leaves the process (an untyped caller gets the same refusal); a body over the server's limit
    // is the server's 413
    expect(errors).toEqual(["SchemaError", "SchemaError", "SchemaError", "PayloadTooLarge"])
    // five a minute: the sixth request is refused, and the error says when to come back
    const limited = await withClient(LIMITED_KEY, (client) =>
      Effect.flip(
        Effect.repeat(client.wageEstimator({ payload: { hourlyWage: BigDecimal.fromNumberUnsafe(1) } }), { times: 5 })
      )
    )
    expect(limited._tag).toBe("RateLimited")
    expect((limited as { retryAfterSeconds?: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1)
  })
})

describe("HttpApiClient decoding", () => {
  test("every error class of the API, from the envelope with its status", async () => {
    const answers: Record<number, object> = {
      400: { code: "invalid_request", message: "Give hourlyWage or annualSalary" },
      422: {
        code: "invalid_value",
        message: "hourlyWage must be greater than 0",
        details: [{ path: "hourlyWage", message: "must be greater than 0" }]
      },
      404: { code: "not_found", message: "No route" },
      405: { code: "method_not_allowed", message: "Use POST" },
      500: { code: "internal_error", message: "A bug" },
      503: { code: "service_unavailable", message: "Draining" }
    }
    const tags: Array<string> = []
    for (const [status, error] of Object.entries(answers)) {
      const canned = HttpClient.make((request) =>
        Effect.succeed(
          HttpClientResponse.fromWeb(
            request,
            new Response(JSON.stringify({ success: false, error }), {
              status: Number(status),
              headers: { "content-type": "application/json" }
            })
          )
        )
      )
      tags.push(
        await Effect.runPromise(
          HttpApiClient.make(ToolsApi, { baseUrl: "http://canned" }).pipe(
            Effect.flatMap((client) =>
              failureTag(client.wageEstimator({ payload: { hourlyWage: BigDecimal.fromNumberUnsafe(1) } }))
            ),
            Effect.provide(Layer.succeed(HttpClient.HttpClient, canned))
          )
        )
      )
    }
    expect(tags).toEqual([
      "InvalidRequest",
      "NotFound",
      "MethodNotAllowed",
      "InvalidValue",
      "InternalError",
      "ServiceUnavailable"
    ])
  })
})
