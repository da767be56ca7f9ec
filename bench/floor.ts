/**
 * The framework's floor: the two tool endpoints as a minimal Effect HttpApi on @effect/platform-bun, with the
 * service's own schemas, services and handlers, and nothing else: no authentication, rate limit, body checks,
 * error mapping, request log, metrics or edge middleware, and no tracer spans. What an Effect HttpApi costs per
 * request before any feature; `bun run bench` reports the service against it as well as against the bare-Bun
 * baseline. Environment: PORT, HOST, UA_CACHE_SIZE.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpMiddleware } from "@effect/platform"
import { BunHttpServer, BunRuntime } from "@effect/platform-bun"
import { Effect, Layer, Schema } from "effect"
import { UserAgentRequest, UserAgentResponse } from "../src/Domain/UserAgent.ts"
import { assumptions, WageRequest, WageResponse } from "../src/Domain/Wage.ts"
import { UserAgents } from "../src/Services/UserAgents.ts"
import { Wages } from "../src/Services/Wages.ts"

const Api = HttpApi.make("floor")
  .add(
    HttpApiGroup.make("tools")
      .add(
        HttpApiEndpoint.post("userAgentParser", "/user-agent-parser")
          .setPayload(UserAgentRequest)
          .addSuccess(UserAgentResponse)
      )
      .add(HttpApiEndpoint.post("wageEstimator", "/wage-estimator").setPayload(WageRequest).addSuccess(WageResponse))
      .prefix("/v1/tools")
  )
  .add(
    HttpApiGroup.make("system").add(
      HttpApiEndpoint.get("health", "/health").addSuccess(Schema.Struct({ status: Schema.Literal("ok") }))
    )
  )

const Tools = HttpApiBuilder.group(Api, "tools", (handlers) =>
  Effect.gen(function* () {
    const userAgents = yield* UserAgents
    const wages = yield* Wages
    return handlers
      .handle("userAgentParser", ({ payload }) =>
        Effect.map(
          payload.operation === "parse"
            ? userAgents.parse(payload.userAgent, payload.headers)
            : Effect.orDie(userAgents.generate(payload)),
          (data) => ({ success: true as const, data })
        )
      )
      .handle("wageEstimator", ({ payload }) =>
        Effect.map(wages.estimate(payload), (estimates) => ({ success: true as const, estimates, assumptions }))
      )
  })
)

const System = HttpApiBuilder.group(Api, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed({ status: "ok" as const }))
)

const port = Number(process.env.PORT ?? 3000)
const hostname = process.env.HOST ?? "0.0.0.0"

HttpApiBuilder.serve().pipe(
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide([Tools, System]))),
  Layer.provide([UserAgents.Default, Wages.Default]),
  Layer.provide(BunHttpServer.layer({ port, hostname })),
  Layer.launch,
  BunRuntime.runMain
)
